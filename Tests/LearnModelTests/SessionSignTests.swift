import Foundation
import Testing
@testable import LearnModel

@Suite struct SessionSignTests {
    /// Reproducible session ids, like the app's lowercase UUIDs.
    func ids(_ n: Int, seed: UInt64 = 42) -> [String] {
        var source = UUIDSource(seed: seed)
        return (0..<n).map { _ in source.next().uuidString.lowercased() }
    }

    @Test func sameIDSameSignOnEveryDevice() {
        let id = "3f2c8a10-5b7e-4d21-9c3a-0e4f6a7b8c9d"
        #expect(SessionSign(sessionID: id) == SessionSign(sessionID: id))
        // Pinned: the host and a joiner on another build must agree, so the
        // derivation may never change silently.
        let pinned = SessionSign(sessionID: id)
        // Worked out by hand from the published rule (FNV-1a, SplitMix64,
        // pair = n mod 120, colour = n / 120 mod 8): a host and a joiner on
        // another build must agree, so the rule may never change silently.
        #expect(pinned == SessionSign(first: .boat, second: .mushroom, colour: .green))
        #expect(SessionSign(sessionID: "00000000-0000-0000-0000-000000000000").description == "red star balloon")
        #expect(pinned == SessionSign(sessionID: id.uppercased()), "case does not matter")
        #expect(pinned == SessionSign(sessionID: UUID(uuidString: id)!), "a UUID and its text agree")
    }

    @Test func theHostsUUIDAndTheAnnouncedTextGiveOneSign() {
        for text in ids(50) {
            let uuid = UUID(uuidString: text)!
            // The host announces `uuidString.lowercased()`; its lobby works
            // from the UUID itself.
            #expect(SessionSign(sessionID: uuid) == SessionSign(sessionID: uuid.uuidString.lowercased()))
        }
    }

    @Test func twoDifferentPicturesInOneOrder() {
        for id in ids(500) {
            let s = SessionSign(sessionID: id)
            #expect(s.first != s.second)
            #expect(s.first < s.second)
        }
        let swapped = SessionSign(first: .tree, second: .sun, colour: .red)
        #expect(swapped == SessionSign(first: .sun, second: .tree, colour: .red))
        #expect(swapped.description == "red sun tree")
    }

    @Test func signsSpreadOverAllPicturesAndColours() {
        let signs = ids(4000).map { SessionSign(sessionID: $0) }
        #expect(SessionSign.count == 960)
        let pictures = Dictionary(grouping: signs.flatMap { [$0.first, $0.second] }, by: { $0 }).mapValues(\.count)
        let colours = Dictionary(grouping: signs.map(\.colour), by: { $0 }).mapValues(\.count)
        #expect(pictures.count == SessionSign.Picture.allCases.count)
        #expect(colours.count == SessionSign.Colour.allCases.count)
        // Each picture is expected 500 times (8000 / 16), each colour 500
        // times (4000 / 8): allow a generous ±25 %.
        for (p, n) in pictures { #expect((375...625).contains(n), "\(p) appears \(n) times") }
        for (c, n) in colours { #expect((375...625).contains(n), "\(c) appears \(n) times") }
        // 4000 ids over 960 signs: about 947 distinct if uniform; a poor
        // hash would leave many unused.
        let distinct = Set(signs).count
        #expect(distinct > 900, "only \(distinct) different signs")
        let most = Dictionary(grouping: signs, by: { $0 }).values.map(\.count).max() ?? 0
        #expect(most <= 14, "one sign came up \(most) times")
    }

    @Test func idsThatDifferInOneCharacterGetDifferentSigns() {
        // Neighbouring ids (a forger's first try) should not share a sign
        // more often than chance (1 in 960).
        var same = 0
        for id in ids(500) {
            var chars = Array(id)
            chars[chars.count - 1] = chars.last == "0" ? "1" : "0"
            if SessionSign(sessionID: id) == SessionSign(sessionID: String(chars)) { same += 1 }
        }
        #expect(same <= 3)
    }

    @Test func aCardCarriesTheSignOfItsSessionIDAlsoWhenItIsACopy() {
        let t0 = ContinuousClock.now
        var list = DiscoveryList()
        let id = ids(1)[0]
        for host in ["192.168.1.5", "192.168.1.66"] {
            list.record(DiscoveryFinding(mechanism: .beacon,
                                         announcement: SessionAnnouncement(sessionID: id, hostName: "Anna", activity: .sketch,
                                                                           port: 47851),
                                         host: host, seen: t0))
        }
        #expect(list.sessions.count == 2)
        #expect(list.sessions.map(\.sign) == [SessionSign(sessionID: id), SessionSign(sessionID: id)])
        #expect(list.sessions.map(\.isCopy) == [false, true])
    }
}
