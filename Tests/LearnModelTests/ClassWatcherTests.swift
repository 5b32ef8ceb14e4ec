import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// The teacher's class wall watches a group of the class without a pupil
/// letting it in: its hello proves the class's key (`WatchProof`).
@Suite struct ClassWatcherTests {
    let key = [UInt8](repeating: 7, count: WatchProof.size)

    func hosting(_ key: [UInt8]?) -> SessionSimulation {
        var sim = SessionSimulation()
        sim.host.classWatchKey = key
        return sim
    }

    func watcher(_ key: [UInt8], for session: UUID, role: PeerRole = .observer, peer: UUID = UUID(),
                 as who: UUID? = nil) -> PeerSession {
        var p = PeerSession(peerID: peer, name: "Frau Kim", role: role)
        p.watchProof = WatchProof.make(key: key, session: session, watcher: who ?? peer)
        return p
    }

    @Test func theClassesWallWatchesAtOnce() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: sim.host.sessionID))
        #expect(sim.peers[1]?.phase == .accepted)
        #expect(sim.host.lobby.member(1)?.role == .observer)
    }

    @Test func anotherClassesKeyWaitsForTheHost() {
        var sim = hosting(key)
        sim.connect(1, watcher([UInt8](repeating: 8, count: WatchProof.size), for: sim.host.sessionID))
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.host.lobby.member(1)?.state == .pending)
    }

    @Test func aProofForAnotherSessionOrAnotherPeerWaits() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: UUID()))
        sim.connect(2, watcher(key, for: sim.host.sessionID, as: UUID()))
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.peers[2]?.phase == .joining)
    }

    @Test func theKeyNeverMakesAPainter() {
        var sim = hosting(key)
        sim.connect(1, watcher(key, for: sim.host.sessionID, role: .drawer))
        #expect(sim.peers[1]?.phase == .joining)
        #expect(sim.host.lobby.member(1)?.state == .pending)
    }

    @Test func aHostWithoutAClassAsksForEveryone() {
        var sim = hosting(nil)
        sim.connect(1, watcher(key, for: sim.host.sessionID))
        #expect(sim.peers[1]?.phase == .joining)
    }

    @Test func theProofTravelsInTheHelloAndOlderFieldsStayWhereTheyWere() throws {
        let proof = WatchProof.make(key: key, session: UUID(), watcher: UUID())
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
