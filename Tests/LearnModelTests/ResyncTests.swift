import Foundation
import Testing
@testable import LearnModel

/// A member whose copy of a stroke fell out of step with the host's (pieces
/// it never got) rejoins for the host's copy instead of keeping the stroke
/// cut short for good; a host whose pieces never fit cannot keep it
/// reconnecting.
@Suite struct ResyncTests {
    let rules = SessionRulesTests()

    /// Loses the `n`-th batch of pieces the host sends to connection 2.
    func losing(_ n: Int, in sim: inout SessionSimulation) {
        nonisolated(unsafe) var seen = 0
        sim.lose = { c, m in
            guard c == 2, case .strokeSegments = m else { return false }
            seen += 1
            return seen == n
        }
    }

    @Test func aMemberThatMissedPiecesOfAStrokeRejoinsAndEndsWithTheHostsCopy() {
        var sim = rules.started(3)
        losing(2, in: &sim)
        rules.draw(&sim, 1, seed: 7)
        #expect(sim.resyncs == [2])
        #expect(sim.peers[2]?.resyncCount == 1)
        sim.lose = nil
        sim.reconnect(2, as: 12)
        rules.expectSameDocuments(sim, [1, 3, 12])
        #expect(sim.host.document.strokes.first?.segments.count == sim.peers[12]?.document.strokes.first?.segments.count)
        // Drawing goes on as before.
        rules.draw(&sim, 12, seed: 8)
        rules.expectSameDocuments(sim, [1, 3, 12])
        #expect(sim.host.document.strokes.count == 2)
    }

    @Test func aMemberThatMissedTheLastPiecesBeforeTheEndRejoins() {
        var sim = rules.started(2)
        let id = rules.draw(&sim, 1, seed: 9, finish: false)
        losing(1, in: &sim)
        let more = [CubicSegment(c1: Point(300, 300), c2: Point(310, 310), end: Point(320, 320))]
        sim.peerDo(1) { $0.addSegments(more, to: id) + $0.endStroke(id) }
        sim.run()
        #expect(sim.resyncs == [2])
        sim.lose = nil
        sim.reconnect(2, as: 12)
        rules.expectSameDocuments(sim, [1, 12])
        #expect(sim.host.document.strokes.count == 1)
    }

    @Test func aHostWhosePiecesNeverFitGetsAtMostThreeRejoins() {
        let rogue = RogueHostTests()
        var p = rogue.member()
        let b = rogue.begin(seq: 1)
        _ = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        var resyncs = 0
        for seq in UInt64(2)...8 {
            let wrong = StrokeSegments(stamp: OpStamp(sender: 0, seq: seq), strokeID: b.strokeID,
                                       base: WirePoint(x: 999, y: 999),
                                       segments: [WireSegment(c1: rogue.p0, c2: rogue.p0, end: rogue.p0)])
            for case .resync in p.receive(SessionSimulation.throughCodec(.strokeSegments(wrong))) { resyncs += 1 }
        }
        #expect(resyncs == PeerSession.maxResyncs)
        #expect(p.resyncCount == PeerSession.maxResyncs)
        #expect(p.rejectedCount == 7)
    }

    @Test func piecesOfAStrokeTheMemberLeftOutAskForNoRejoin() {
        let rogue = RogueHostTests()
        var p = rogue.member()
        let b = rogue.begin(seq: 1, width: WireLength(raw: 0))
        var effects = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        effects += p.receive(SessionSimulation.throughCodec(.strokeSegments(StrokeSegments(
            stamp: OpStamp(sender: 0, seq: 2), strokeID: b.strokeID, base: rogue.p0,
            segments: [WireSegment(c1: rogue.p0, c2: rogue.p0, end: rogue.p0)]))))
        effects += p.receive(SessionSimulation.throughCodec(.strokeEnd(StrokeEnd(
            stamp: OpStamp(sender: 0, seq: 3), strokeID: b.strokeID, time: WireTime(rogue.now)))))
        #expect(!effects.contains { if case .resync = $0 { true } else { false } })
        #expect(p.resyncCount == 0 && p.rejectedCount == 3)
    }
}
