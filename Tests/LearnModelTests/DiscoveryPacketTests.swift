import Foundation
import Testing
@testable import LearnModel

@Suite struct DiscoveryPacketTests {
    let anna = SessionAnnouncement(sessionID: "0190c1a2-7d3e-7000-8000-123456789abc", hostName: "Anna 🦊",
                                   activity: .sketch, port: 47851)

    @Test func beaconRoundTrips() throws {
        for kind in [BeaconPacket.Kind.announce, .goodbye] {
            var a = anna
            a.lobbyOpen = kind == .announce
            let packet = BeaconPacket(kind: kind, announcement: a)
            #expect(try BeaconPacket(decoding: packet.encoded()) == packet)
        }
    }

    @Test func beaconLayoutIsAsDocumented() {
        let bytes = BeaconPacket(announcement: anna).encoded()
        #expect(Array(bytes[0..<8]) == [0x54, 0x53, 0x4B, 0x42, 1, 1, 0xBA, 0xEB])
        #expect(bytes[8] == 3 && Array(bytes[9..<12]) == Array("v=\(SessionProtocol.version)".utf8))
        #expect(bytes.count < 200)
    }

    @Test func garbageIsRejectedWithAReason() {
        let good = BeaconPacket(announcement: anna).encoded()
        #expect(throws: BeaconPacket.DecodeError.tooShort) { try BeaconPacket(decoding: [UInt8]()) }
        #expect(throws: BeaconPacket.DecodeError.tooShort) { try BeaconPacket(decoding: Array(good.prefix(7))) }
        #expect(throws: BeaconPacket.DecodeError.badMagic) { try BeaconPacket(decoding: Array("hello, world".utf8)) }
        #expect(throws: BeaconPacket.DecodeError.tooLong) {
            try BeaconPacket(decoding: good + [UInt8](repeating: 0, count: 600))
        }
        var v2 = good
        v2[4] = 2
        #expect(throws: BeaconPacket.DecodeError.unsupportedVersion(2)) { try BeaconPacket(decoding: v2) }
        var kind = good
        kind[5] = 9
        #expect(throws: BeaconPacket.DecodeError.unknownKind(9)) { try BeaconPacket(decoding: kind) }
        #expect(throws: BeaconPacket.DecodeError.truncatedEntry) { try BeaconPacket(decoding: Array(good.dropLast())) }
        #expect(throws: BeaconPacket.DecodeError.badFields) { try BeaconPacket(decoding: Array(good.prefix(8))) }
    }

    @Test func randomAndMutatedBytesNeverCrashTheDecoder() {
        var rng = SplitMix64(seed: 42)
        let good = BeaconPacket(announcement: anna).encoded()
        var accepted = 0
        for i in 0..<20_000 {
            var bytes: [UInt8]
            if i % 2 == 0 {
                bytes = (0..<Int(rng.next() % 80)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                bytes = good
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            if let p = try? BeaconPacket(decoding: bytes) {
                accepted += 1
                #expect(p.announcement.isValid)
            }
        }
        // Some single-byte mutations (e.g. in the name) stay valid; most don't.
        #expect(accepted < 10_000)
    }

    @Test func txtEntriesRoundTrip() {
        let entries = DiscoveryTXT.entries(for: anna)
        #expect(entries == ["v=\(SessionProtocol.version)", "id=\(anna.sessionID)", "host=Anna 🦊", "act=sketch", "open=1"])
        #expect(DiscoveryTXT.announcement(from: entries, port: 47851) == anna)
    }

    @Test func aClassTravelsAsEightHexDigitsAndABadOneIsNone() throws {
        var tagged = anna
        tagged.classTag = ClassTag(classID: "3F2A0000-0000-4000-8000-000000000001")
        let entries = DiscoveryTXT.entries(for: tagged)
        #expect(entries.last == "cls=\(tagged.classTag!)")
        #expect(DiscoveryTXT.announcement(from: entries, port: 47851) == tagged)
        // The same class, however its id is written, is the same tag; another is not.
        #expect(ClassTag(classID: "3f2a0000-0000-4000-8000-000000000001") == tagged.classTag)
        #expect(ClassTag(classID: "3f2a0000-0000-4000-8000-000000000002") != tagged.classTag)
        #expect(tagged.classTag!.rawValue.count == 8)
        // The beacon carries it too.
        let packet = BeaconPacket(announcement: tagged)
        #expect(try BeaconPacket(decoding: packet.encoded()) == packet)
        // Anything else is no class, and the session still is one.
        for bad in ["cls=3F2A0000", "cls=3f2a00", "cls=3f2a00001", "cls=zzzzzzzz", "cls="] {
            let a = DiscoveryTXT.announcement(from: DiscoveryTXT.entries(for: anna) + [bad], port: 47851)
            #expect(a == anna, "\(bad)")
        }
    }

    @Test func txtFollowsDnssdRules() {
        // Keys are case-insensitive, the first occurrence wins, unknown keys
        // and key-less entries are ignored, and values may contain '='.
        let entries = ["V=1", "id=abc", "id=other", "host=a=b", "act=wordpost", "open=0", "future=x", "flag", "=x"]
        let a = DiscoveryTXT.announcement(from: entries, port: 47852)
        #expect(a == SessionAnnouncement(sessionID: "abc", hostName: "a=b", activity: .wordpost, port: 47852, protocolVersion: 1,
                                         lobbyOpen: false))
    }

    @Test(arguments: [
        ["id=abc", "host=A", "act=sketch", "open=1"],
        ["v=x", "id=abc", "host=A", "act=sketch", "open=1"],
        ["v=1", "id=", "host=A", "act=sketch", "open=1"],
        ["v=1", "id=a b", "host=A", "act=sketch", "open=1"],
        ["v=1", "id=abc", "host=  ", "act=sketch", "open=1"],
        ["v=1", "id=abc", "host=A", "act=Quiz Night", "open=1"],
        ["v=1", "id=abc", "host=A", "act=sketch", "open=yes"],
    ])
    func txtWithoutValidRequiredFieldsIsNoSession(entries: [String]) {
        #expect(DiscoveryTXT.announcement(from: entries, port: 47851) == nil)
    }

    @Test func anActivityThisAppDoesNotKnowIsStillASession() {
        // A newer app's activity is listed; the join screens show only their own kind.
        let a = DiscoveryTXT.announcement(from: ["v=2", "id=abc", "host=A", "act=class-wall", "open=1"], port: 47851)
        #expect(a?.activity.rawValue == "class-wall")
        #expect(a?.activity != .sketch && a?.activity != .wordpost)
    }

    @Test func badUTF8AndBadPortAreRejected() {
        let entries: [[UInt8]] = [Array("v=1".utf8), Array("id=abc".utf8), Array("host=".utf8) + [0xFF, 0xFE],
                                  Array("act=sketch".utf8), Array("open=1".utf8)]
        #expect(DiscoveryTXT.announcement(from: entries, port: 47851) == nil)
        #expect(DiscoveryTXT.announcement(from: ["v=1", "id=a", "host=A", "act=sketch", "open=1"], port: 0) == nil)
    }

    @Test func hostNamesAreCleanedAndCutToDnsLimits() {
        let long = String(repeating: "ü", count: 40) // 80 bytes
        let a = SessionAnnouncement(sessionID: "x", hostName: "  \(long)\n", activity: .sketch, port: 1)
        #expect(a.hostName == String(repeating: "ü", count: 31))
        #expect(SessionAnnouncement(sessionID: "x", hostName: "Ma\u{7}x", activity: .sketch, port: 1).hostName == "Max")
        let family = "👨‍👩‍👧"
        #expect(SessionAnnouncement(sessionID: "x", hostName: family, activity: .sketch, port: 1).hostName == family)
    }
}

@Suite struct DiscoveryServiceNameTests {
    @Test func collisionsCountUpLikeAvahi() {
        #expect(ServiceName.alternative("Anna") == "Anna #2")
        #expect(ServiceName.alternative("Anna #2") == "Anna #3")
        #expect(ServiceName.alternative("Anna #9") == "Anna #10")
        #expect(ServiceName.alternative("Room #1") == "Room #1 #2")
        #expect(ServiceName.alternative("Anna #x") == "Anna #x #2")
    }

    @Test func alternativesStayWithinTheInstanceNameLimit() {
        let long = String(repeating: "ä", count: 31) // 62 bytes
        let alt = ServiceName.alternative(long)
        #expect(alt.utf8.count <= SessionAnnouncement.maxHostNameBytes)
        #expect(alt.hasSuffix(" #2"))
        #expect(ServiceName.alternative(alt).hasSuffix(" #3"))
    }

    @Test func beaconLifetimeCoversThreeMissedBeacons() {
        #expect(BeaconConfiguration.standard.lifetime == .milliseconds(7000))
        #expect(BeaconConfiguration.loopback(port: 1, interval: .milliseconds(100)).lifetime == .milliseconds(350))
    }
}

@Suite struct BeaconFuzzFindingTests {
    @Test func aBeaconTheFuzzerFoundSurvivesBeingAnnouncedAgain() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/corpus/discovery/found-host-name-cut-after-space.bin")
        let bytes = try [UInt8](Data(contentsOf: url))
        let packet = try BeaconPacket(decoding: bytes)
        let again = try BeaconPacket(decoding: packet.encoded())
        #expect(again == packet, "\(packet) vs \(again)")
    }
}
