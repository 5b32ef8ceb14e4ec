import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// Watchers see the whole sketch, pupils' names included, so the host lets
/// them in like painters.
@Suite struct ObserverApprovalTests {
    /// Host plus one accepted drawer on connection 1, started, one stroke drawn.
    func startedWithInk() -> SessionSimulation {
        var sim = SessionSimulation()
        sim.connect(1, PeerSession(name: "P1", role: .drawer))
        sim.hostDo(.accept(1))
        sim.run()
        sim.hostDo(.start)
        sim.run()
        sim.hostDo(.beginStroke(id: UUID(), color: PenColor.red.rgba, width: 6, start: Point(10, 10)))
        sim.run()
        return sim
    }

    @Test func anObserverWaitsForTheHostAndSeesNothingMeanwhile() {
        var sim = startedWithInk()
        sim.connect(9, PeerSession(name: "Projector", role: .observer))
        #expect(sim.peers[9]?.phase == .joining)
        #expect(sim.host.lobby.member(2)?.state == .pending)
        #expect(sim.host.lobby.member(2)?.role == .observer)
        #expect(sim.peers[9]?.document.strokes.isEmpty == true)
        #expect(!sim.events(9).contains { if case .strokeBegan = $0 { true } else { false } })
    }

    @Test func anAcceptedObserverReceivesTheSketch() {
        var sim = startedWithInk()
        sim.connect(9, PeerSession(name: "Projector", role: .observer))
        sim.hostDo(.accept(2))
        sim.run()
        #expect(sim.peers[9]?.phase == .started)
        #expect(sim.peers[9]?.document == sim.host.document)
        #expect(sim.peers[9]?.live.count == 1)
    }

    @Test func aDeclinedObserverIsToldAndForgotten() {
        var sim = startedWithInk()
        sim.connect(9, PeerSession(name: "Projector", role: .observer))
        sim.hostDo(.decline(2))
        sim.run()
        #expect(sim.peers[9]?.phase == .declined(.byHost))
        #expect(!sim.open.contains(9))
        #expect(sim.host.lobby.member(2) == nil)
    }

    @Test func acceptAllLetsObserversInEvenWhenThePaintersAreFull() {
        var sim = SessionSimulation(acceptAll: true)
        for i in 1...3 { sim.connect(ConnectionID(i), PeerSession(name: "P\(i)", role: .drawer)) }
        sim.connect(9, PeerSession(name: "Projector", role: .observer))
        #expect(sim.peers[9]?.phase == .accepted)
    }

    @Test func aTrustedJoinerIsLetInWithoutAsking() {
        var sim = SessionSimulation()
        let teacher = UUID()
        // The hook for what no proof decides yet: a fixed peer id stands in
        // (a class's own wall proves its key, ClassWatcherTests).
        sim.host.isTrustedJoiner = { $0.peerID == teacher }
        sim.connect(1, PeerSession(peerID: teacher, name: "Frau Kim", role: .observer))
        sim.connect(2, PeerSession(name: "Stranger", role: .observer))
        #expect(sim.peers[1]?.phase == .accepted)
        #expect(sim.peers[2]?.phase == .joining)
    }
}
