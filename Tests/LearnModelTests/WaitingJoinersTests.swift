import Foundation
import Testing
@testable import LearnModel

/// Strangers saying hello from many machines cannot fill the lobby: a few
/// may wait at once, one per machine, and the teacher clears them in one go.
@Suite struct WaitingJoinersTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func host(acceptAll: Bool = false) -> HostSession {
        HostSession(hostName: "Teacher", params: SessionParams(name: "S"), acceptAll: acceptAll)
    }

    @discardableResult
    func join(_ h: inout HostSession, _ c: ConnectionID, from source: String?, role: PeerRole = .drawer) -> [HostSession.Effect] {
        _ = h.handle(.connectionOpened(c, from: source), now: now)
        return h.handle(.received(c, .hello(Hello(peerID: UUID(), name: "S\(c)", role: role))), now: now)
    }

    func declined(_ fx: [HostSession.Effect], _ c: ConnectionID) -> DeclineReason? {
        fx.compactMap { if case .send(.declined(let r), [c]) = $0 { r } else { nil } }.first
    }

    func waiting(_ h: HostSession) -> Int { h.lobby.members.filter { $0.state == .pending }.count }

    @Test func atMostTwelveWaitAndTheNextIsToldTheLobbyIsFull() {
        var h = host()
        for c in 1...12 { #expect(declined(join(&h, ConnectionID(c), from: "10.0.0.\(c)"), ConnectionID(c)) == nil) }
        let fx = join(&h, 13, from: "10.0.0.13")
        #expect(declined(fx, 13) == .lobbyFull)
        #expect(fx.contains { if case .close(13, _) = $0 { true } else { false } })
        #expect(waiting(h) == 12)
        // Once the host lets one in, there is room for one more.
        _ = h.handle(.accept(1), now: now)
        #expect(declined(join(&h, 14, from: "10.0.0.14"), 14) == nil)
        #expect(waiting(h) == 12)
    }

    @Test func oneMachineMayHaveOneJoinerWaiting() {
        var h = host()
        join(&h, 1, from: "10.0.0.5")
        #expect(declined(join(&h, 2, from: "10.0.0.5"), 2) == .lobbyFull)
        #expect(declined(join(&h, 3, from: "10.0.0.6"), 3) == nil)
        // Accepted, it no longer waits: its machine may ask again (a pupil
        // who also wants to watch on the same tablet).
        _ = h.handle(.accept(1), now: now)
        #expect(declined(join(&h, 4, from: "10.0.0.5", role: .observer), 4) == nil)
        // A waiting joiner that leaves frees its machine's place.
        _ = h.handle(.connectionClosed(3), now: now)
        #expect(declined(join(&h, 5, from: "10.0.0.6"), 5) == nil)
    }

    @Test func thisDeviceIsNotCappedPerAddressButCountsInAll() {
        var h = host()
        for c in 1...3 { #expect(declined(join(&h, ConnectionID(c), from: nil), ConnectionID(c)) == nil) }
        for c in 4...12 { join(&h, ConnectionID(c), from: "10.0.1.\(c)") }
        #expect(declined(join(&h, 13, from: nil), 13) == .lobbyFull)
    }

    @Test func whoIsLetInAtOnceNeverWaitsAndIsNotCapped() {
        var h = host(acceptAll: true)
        for c in 1...20 {
            #expect(declined(join(&h, ConnectionID(c), from: "10.0.0.9", role: .observer), ConnectionID(c)) == nil)
        }
        #expect(h.lobby.members.count == 21)
    }

    @Test func declineAllWaitingSendsEveryWaitingJoinerAwayAndKeepsTheAccepted() {
        var h = host()
        for c in 1...4 { join(&h, ConnectionID(c), from: "10.0.0.\(c)") }
        _ = h.handle(.accept(1), now: now)
        let fx = h.handle(.declineAllWaiting, now: now)
        for c in 2...4 { #expect(declined(fx, ConnectionID(c)) == .byHost) }
        #expect(declined(fx, 1) == nil)
        #expect(fx.filter { if case .event(.lobbyChanged) = $0 { true } else { false } }.count == 1)
        #expect(h.lobby.members.map(\.name) == ["Teacher", "S1"])
        #expect(h.connections.count == 1)
        // Nothing waiting: nothing to do.
        #expect(h.handle(.declineAllWaiting, now: now).isEmpty)
    }

    @Test func aMemberToldTheLobbyIsFullStops() {
        var p = PeerSession(name: "Anna", role: .drawer)
        _ = p.connected()
        let fx = p.receive(SessionSimulation.throughCodec(.declined(.lobbyFull)))
        #expect(p.phase == .declined(.lobbyFull))
        #expect(fx.contains(.event(.declined(.lobbyFull))))
    }
}
