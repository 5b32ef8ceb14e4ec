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
        var sim = SessionSimulation.started(3)
        losing(2, in: &sim)
        sim.draw(1, seed: 7)
        #expect(sim.resyncs == [2])
        #expect(sim.peers[2]?.resyncCount == 1)
        sim.lose = nil
        sim.reconnect(2, as: 12)
        rules.expectSameDocuments(sim, [1, 3, 12])
        #expect(sim.host.document.strokes.first?.segments.count == sim.peers[12]?.document.strokes.first?.segments.count)
        // Drawing goes on as before.
        sim.draw(12, seed: 8)
        rules.expectSameDocuments(sim, [1, 3, 12])
        #expect(sim.host.document.strokes.count == 2)
    }

    /// The host spends a seq on every op it refuses and relays nothing for
    /// it: a hole before a stroke's end is no sign of a wrong copy.
    @Test func aHoleLeftByARefusedOpAsksForNoRejoin() {
        let rogue = RogueHostTests()
        var p = rogue.member()
        let b = rogue.begin(seq: 1)
        var effects = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        effects += p.receive(SessionSimulation.throughCodec(.strokeSegments(StrokeSegments(
            stamp: OpStamp(sender: 0, seq: 2), strokeID: b.strokeID, base: rogue.p0,
            segments: [WireSegment(c1: rogue.p0, c2: rogue.p0, end: WirePoint(x: 80, y: 80))]))))
        // Seq 3 was refused by the host (a fifth finger, ink off the page).
        effects += p.receive(SessionSimulation.throughCodec(.strokeEnd(StrokeEnd(
            stamp: OpStamp(sender: 0, seq: 4), strokeID: b.strokeID, time: WireTime(rogue.now)))))
        #expect(!effects.contains { if case .resync = $0 { true } else { false } })
        #expect(p.gapCount == 1 && p.resyncCount == 0)
        #expect(p.document.strokes.first?.segments.count == 1)
    }

    @Test func aSnapshotStrokeTheMemberLeftOutAsksForNoRejoinWhenItGoesOn() {
        let rogue = RogueHostTests()
        var p = rogue.member()
        let bad = LiveStroke(begin: rogue.begin(seq: 1, width: WireLength(raw: 0)))
        for m in [SessionMessage.snapshotBegin(SnapshotBegin(opCount: 0)), .snapshotStroke(bad),
                  .snapshotEnd(SnapshotEnd(lastSeq: [OpStamp(sender: 0, seq: 1)]))] {
            _ = p.receive(SessionSimulation.throughCodec(m))
        }
        let effects = p.receive(SessionSimulation.throughCodec(.strokeSegments(StrokeSegments(
            stamp: OpStamp(sender: 0, seq: 2), strokeID: bad.id, base: rogue.p0,
            segments: [WireSegment(c1: rogue.p0, c2: rogue.p0, end: rogue.p0)]))))
        #expect(effects.isEmpty && p.resyncCount == 0)
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
