import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// A late joiner's snapshot goes out one piece per drained queue, and ops
/// made meanwhile reach the joiner exactly once, in the host's order.
@Suite struct SnapshotStreamingTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    func hello(_ name: String) -> SessionMessage { .hello(Hello(peerID: UUID(), name: name, role: .drawer)) }

    func sends(_ fx: [HostSession.Effect], to c: ConnectionID) -> [SessionMessage] {
        fx.compactMap { if case .send(let m, let to) = $0, to.contains(c) { m } else { nil } }
    }

    func isSnapshotEnd(_ m: SessionMessage) -> Bool { if case .snapshotEnd = m { true } else { false } }

    /// Host + member 1 (on connection 1), started, with `strokes` host
    /// strokes of 16,000 pieces each: one snapshot piece per stroke.
    func bigSession(strokes: Int) -> HostSession {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"), createdAt: now)
        _ = h.handle(.connectionOpened(1), now: now)
        _ = h.handle(.received(1, hello("P1")), now: now)
        _ = h.handle(.accept(1), now: now)
        _ = h.handle(.start, now: now)
        var rng = SplitMix64(seed: 3)
        func p() -> Point { Point(Double(rng.nextInt(below: 1600)), Double(rng.nextInt(below: 1000))) }
        for _ in 0..<strokes {
            let id = UUID()
            _ = h.handle(.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: p()), now: now)
            let segments = (0..<16_000).map { _ in CubicSegment(c1: p(), c2: p(), end: p()) }
            _ = h.handle(.addSegments(id: id, segments: segments), now: now)
            _ = h.handle(.endStroke(id: id), now: now)
        }
        return h
    }

    @Test func theSnapshotWaitsForTheQueueToDrainAndLiveOpsFollowItExactlyOnce() throws {
        var h = bigSession(strokes: 3)
        var late = PeerSession(name: "Late", role: .drawer)
        var toLate: [SessionMessage] = []
        _ = h.handle(.connectionOpened(2), now: now)
        toLate += sends(h.handle(.received(2, late.hello), now: now), to: 2)

        // Accepted after the start: start, begin and only the first piece.
        let first = sends(h.handle(.accept(2), now: now), to: 2)
        toLate += first
        #expect(first.filter { if case .snapshotOps = $0 { true } else { false } }.count == 1)
        #expect(!first.contains(where: isSnapshotEnd))
        #expect(h.snapshotCursors[2] == 1)

        // Member 1 begins a stroke meanwhile: it goes to member 1, not yet to
        // the joiner, whose snapshot will hold it.
        let strokeID = UUID()
        let begin = StrokeBegin(stamp: OpStamp(sender: 1, seq: 1), strokeID: strokeID, author: "P1",
                                color: RGBA8(PenColor.red.rgba), width: WireLength(4), start: WirePoint(x: 64, y: 64),
                                time: WireTime(now))
        let fxBegin = h.handle(.received(1, .strokeBegin(begin)), now: now)
        #expect(sends(fxBegin, to: 1).count == 1)
        #expect(sends(fxBegin, to: 2).isEmpty)

        // Each drained queue brings one more piece; the last comes with the
        // stroke in progress and the last seqs as they are then.
        toLate += sends(h.handle(.snapshotDrained(2), now: now), to: 2)
        #expect(h.snapshotCursors[2] == 2)
        let last = sends(h.handle(.snapshotDrained(2), now: now), to: 2)
        toLate += last
        #expect(h.snapshotCursors[2] == nil)
        #expect(last.contains { if case .snapshotStroke(let s) = $0 { s.id == strokeID } else { false } })
        let end = try #require(last.compactMap { if case .snapshotEnd(let e) = $0 { e } else { nil } }.first)
        #expect(end.lastSeq.contains(OpStamp(sender: 1, seq: 1)))
        // A stray notice after the end sends nothing.
        #expect(h.handle(.snapshotDrained(2), now: now).isEmpty)

        // From now on the joiner gets ops live.
        let batch = StrokeSegments(stamp: OpStamp(sender: 1, seq: 2), strokeID: strokeID, base: WirePoint(x: 64, y: 64),
                                   segments: [WireSegment(c1: WirePoint(x: 70, y: 70), c2: WirePoint(x: 80, y: 80),
                                                          end: WirePoint(x: 90, y: 90))])
        toLate += sends(h.handle(.received(1, .strokeSegments(batch)), now: now), to: 2)
        toLate += sends(h.handle(.received(1, .strokeEnd(StrokeEnd(stamp: OpStamp(sender: 1, seq: 3), strokeID: strokeID,
                                                                    time: WireTime(now)))), now: now), to: 2)

        _ = late.connected()
        for m in toLate { _ = late.receive(SessionSimulation.throughCodec(m)) }
        #expect(late.document == h.document)
        #expect(late.document.strokes.count == 4)
        #expect(late.duplicateCount == 0)
        #expect(late.gapCount == 0)
        #expect(late.rejectedCount == 0)
    }

    @Test func aJoinerThatGoesMidSnapshotIsForgotten() {
        var h = bigSession(strokes: 2)
        _ = h.handle(.connectionOpened(2), now: now)
        _ = h.handle(.received(2, hello("Late")), now: now)
        _ = h.handle(.accept(2), now: now)
        #expect(h.snapshotCursors[2] != nil)
        _ = h.handle(.connectionClosed(2), now: now)
        #expect(h.snapshotCursors.isEmpty)
        #expect(h.handle(.snapshotDrained(2), now: now).isEmpty)
    }

    @Test func aRejoinerMidSnapshotStartsAFreshOne() {
        var h = bigSession(strokes: 2)
        let token = h.members.first { $0.index == 1 }!.token!
        _ = h.handle(.connectionClosed(1), now: now)
        _ = h.handle(.connectionOpened(5), now: now)
        _ = h.handle(.received(5, .hello(Hello(peerID: UUID(), name: "P1", role: .drawer, resumeToken: token))), now: now)
        #expect(h.snapshotCursors[5] == 1)
        // Its connection breaks again and it comes back on another one.
        _ = h.handle(.connectionOpened(6), now: now)
        let fx = h.handle(.received(6, .hello(Hello(peerID: UUID(), name: "P1", role: .drawer, resumeToken: token))), now: now)
        #expect(fx.contains { if case .close(5, _) = $0 { true } else { false } })
        #expect(h.snapshotCursors[5] == nil)
        #expect(h.snapshotCursors[6] == 1)
    }
}
