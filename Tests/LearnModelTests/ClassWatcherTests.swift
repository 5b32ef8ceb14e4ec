import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnSession

/// The teacher's class wall watches a group of the class without a pupil
/// letting it in: its hello proves the class's key (`WatchProof`).
@Suite struct ClassWatcherTests {
    let key = [UInt8](repeating: 7, count: WatchProof.size)

    func hosting(_ key: [UInt8]?) -> SessionSimulation {
        var sim = SessionSimulation()
        sim.host.classWatchKey = key
        return sim
    }

    /// The host's address as the wall dialled it.
    let here = "192.0.2.2:47851"

    func watcher(_ key: [UInt8], for session: UUID, role: PeerRole = .observer, peer: UUID = UUID(),
                 as who: UUID? = nil, dialled: String = "192.0.2.2:47851") -> PeerSession {
        var p = PeerSession(peerID: peer, name: "Frau Kim", role: role)
        p.watchProof = WatchProof.make(key: key, session: session, watcher: who ?? peer, dialled: dialled)
        return p
    }

    @Test func theClassesWallWatchesAtOnce() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: sim.host.sessionID), reachedAt: here)
        #expect(sim.peers[1]?.phase == .accepted)
        #expect(sim.host.lobby.member(1)?.role == .observer)
    }

    @Test func anotherClassesKeyWaitsForTheHost() {
        var sim = hosting(key)
        sim.connect(1, watcher([UInt8](repeating: 8, count: WatchProof.size), for: sim.host.sessionID), reachedAt: here)
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.host.lobby.member(1)?.state == .pending)
    }

    @Test func aProofForAnotherSessionOrAnotherPeerWaits() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: UUID()), reachedAt: here)
        sim.connect(2, watcher(key, for: sim.host.sessionID, as: UUID()), reachedAt: here)
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.peers[2]?.phase == .joining)
    }

    /// A machine that announced the session first got the wall's hello and
    /// passes it on: the proof names the passer's address, not this host's.
    @Test func aProofPassedOnFromAnotherAddressWaits() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: sim.host.sessionID, dialled: "192.0.2.66:47851"), reachedAt: here)
        sim.connect(2, watcher(key, for: sim.host.sessionID), reachedAt: nil)      // through the relay
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.peers[2]?.phase == .joining)
    }

    @Test func theKeyNeverMakesAPainter() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: sim.host.sessionID, role: .drawer), reachedAt: here)
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.host.lobby.member(1)?.state == .pending)
    }

    @Test func aHostWithoutAClassAsksForEveryone() {
        var sim = hosting(nil)
        sim.connect(1, watcher(key, for: sim.host.sessionID), reachedAt: here)
        #expect(sim.peers[1]?.phase == .joining)
    }

    @Test func addressesAreWrittenOneWay() {
        #expect(WatchProof.addressText(host: "192.0.2.2", port: 47851) == here)
        #expect(WatchProof.addressText(host: "::ffff:192.0.2.2", port: 47851) == here)
        #expect(WatchProof.addressText(host: "FE80::1%eth0", port: 47851) == "[fe80::1]:47851")
    }

    /// A hello that says it carries a proof and then ends is refused whole.
    @Test func aTruncatedProofIsRefused() throws {
        let hello = Hello(peerID: UUID(), name: "Frau Kim", role: .observer,
                          watchProof: [UInt8](repeating: 1, count: WatchProof.size))
        var d = FrameDecoder()
        var frame = SessionMessage.hello(hello).frame().dropLast(5).map { $0 }
        let length = UInt32(frame.count - 4)
        frame[0] = UInt8(length >> 24); frame[1] = UInt8(length >> 16 & 0xff)
        frame[2] = UInt8(length >> 8 & 0xff); frame[3] = UInt8(length & 0xff)
        d.append(frame)
        #expect(throws: (any Error).self) { try d.next() }
    }

    @Test func theProofTravelsInTheHelloAndOlderFieldsStayWhereTheyWere() throws {
        let proof = WatchProof.make(key: key, session: UUID(), watcher: UUID(), dialled: here)
        let hello = Hello(peerID: UUID(), name: "Frau Kim", role: .observer, accountID: UUID(), watchProof: proof)
        var d = FrameDecoder()
        d.append(SessionMessage.hello(hello).frame())
        #expect(try d.next() == .hello(hello))
        // The proof comes after every older field: an app that knows none
        // reads the same hello up to it and ignores the rest.
        let older = Hello(peerID: hello.peerID, name: hello.name, role: .observer, accountID: hello.accountID)
        let withProof = Array(SessionMessage.hello(hello).frame().dropFirst(6).dropLast(WatchProof.size))
        var without = Array(SessionMessage.hello(older).frame().dropFirst(6))   // length, version, type
        without[without.count - 17] |= 8                                          // the flags, before the account
        #expect(withProof == without)
    }

    @Test func aKeyIsSixtyFourLowercaseHexDigits() {
        #expect(WatchProof.key(hex: String(repeating: "0a", count: 32)) == [UInt8](repeating: 10, count: 32))
        #expect(WatchProof.key(hex: String(repeating: "0A", count: 32)) == nil)
        #expect(WatchProof.key(hex: String(repeating: "0a", count: 31)) == nil)
        #expect(WatchProof.key(hex: String(repeating: "0g", count: 32)) == nil)
        #expect(WatchProof.key(hex: String(repeating: "é", count: 32)) == nil)
    }

    /// RFC 4231, test case 2: the HMAC under the proof is the standard one.
    @Test func hmacMatchesTheRFC() {
        let mac = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined()
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
