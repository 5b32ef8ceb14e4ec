import Foundation
import Testing
@testable import LearnModel

/// Numbers a peer chose: no arithmetic on them may trap, and impossible ones
/// are refused when the frame is decoded.
@Suite struct SessionHostileNumbersTests {
    private let id = UUID()
    private let p = WirePoint(x: 0, y: 0)
    private func seg(_ x: Int32) -> WireSegment { WireSegment(c1: p, c2: p, end: WirePoint(x: x, y: 0)) }

    @Test func mergingBatchesWithSeqsNearTheTopDoesNotTrap() {
        var q = OutboundQueue()
        let a = StrokeSegments(stamp: OpStamp(sender: 1, seq: .max), seqSpan: 1, strokeID: id, base: p, segments: [seg(1)])
        let b = StrokeSegments(stamp: OpStamp(sender: 1, seq: 0), seqSpan: 1, strokeID: id,
                               base: WirePoint(x: 1, y: 0), segments: [seg(2)])
        q.append(.strokeSegments(a), frame: SessionMessage.strokeSegments(a).frame())
        q.append(.strokeSegments(b), frame: SessionMessage.strokeSegments(b).frame())
        #expect(q.count == 2)
    }

    @Test func mergingSpansThatWouldOverflowKeepsTheBatchesApart() {
        var q = OutboundQueue()
        let a = StrokeSegments(stamp: OpStamp(sender: 1, seq: UInt64(UInt32.max)), seqSpan: .max, strokeID: id,
                               base: p, segments: [seg(1)])
        let b = StrokeSegments(stamp: OpStamp(sender: 1, seq: UInt64(UInt32.max) + 1), seqSpan: 1, strokeID: id,
                               base: WirePoint(x: 1, y: 0), segments: [seg(2)])
        q.append(.strokeSegments(a), frame: SessionMessage.strokeSegments(a).frame())
        q.append(.strokeSegments(b), frame: SessionMessage.strokeSegments(b).frame())
        #expect(q.count == 2)
    }

    @Test func aSnapshotClaimingTheLastPossibleSeqIsRefused() throws {
        let end = SessionMessage.snapshotEnd(SnapshotEnd(lastSeq: [OpStamp(sender: 0, seq: .max)]))
        var decoder = FrameDecoder()
        decoder.append(end.frame())
        #expect(throws: FrameError.self) { _ = try decoder.next() }
    }

    @Test func seqsUpToTheLimitStillDecode() throws {
        let end = SessionMessage.snapshotEnd(SnapshotEnd(lastSeq: [OpStamp(sender: 0, seq: SessionLimits.maxSeq)]))
        var decoder = FrameDecoder()
        decoder.append(end.frame())
        #expect(try decoder.next() == end)
    }
}
