import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// The sketch a host holds, without members or connections: what it takes,
/// what it refuses, and what it commits at the end.
@Suite struct SketchBoardTests {
    let t0 = WireTime(milliseconds: 1_700_000_000_000)

    func begin(_ id: UUID, by sender: MemberIndex, seq: UInt64 = 1, author: String = "Mia") -> StrokeBegin {
        StrokeBegin(stamp: OpStamp(sender: sender, seq: seq), strokeID: id, author: author,
                    color: RGBA8(r: 1, g: 2, b: 3, a: 255), width: WireLength(4), start: WirePoint(x: 64, y: 64),
                    time: t0)
    }

    func pieces(_ n: Int, for stroke: LiveStroke, seq: UInt64 = 2) -> StrokeSegments {
        let base = stroke.wireEnd
        let segments = (1...n).map { i in
            let p = WirePoint(x: base.x + Int32(i) * 64, y: base.y)
            return WireSegment(c1: p, c2: p, end: p)
        }
        return StrokeSegments(stamp: OpStamp(sender: stroke.sender, seq: seq), strokeID: stroke.id, base: base,
                              segments: segments)
    }

    func board(maxOps: Int = 100, maxSegments: Int = 1_000, open: Int = 4) -> SketchBoard {
        var b = SketchBoard(meta: SketchMeta(name: "Zoo"))
        b.capacity = SketchCapacity(maxOps: maxOps, maxSegments: maxSegments, maxOpenStrokesPerSender: open)
        return b
    }

    @Test func aStrokeGoesFromInProgressToTheDocumentOnce() throws {
        var b = board()
        let id = UUID()
        let strokeDone = b.begin(begin(id, by: 1))
        let stroke = try #require(strokeDone)
        #expect(b.liveStroke(id, of: 1) != nil)
        #expect(b.liveStroke(id, of: 2) == nil)
        let r1 = b.extend(pieces(3, for: stroke))
        #expect(r1 == 0)
        #expect(b.segmentCount == 3)
        let opDone = b.end(StrokeEnd(stamp: OpStamp(sender: 1, seq: 3), strokeID: id, time: t0))
        let op = try #require(opDone)
        #expect(b.document.ops == [op])
        #expect(b.live.isEmpty)
        #expect(b.contains(stroke: id))
        // The same id again is nothing, ended or not.
        let r2 = b.begin(begin(id, by: 2))
        #expect(r2 == nil)
        let r3 = b.end(StrokeEnd(stamp: OpStamp(sender: 1, seq: 4), strokeID: id, time: t0))
        #expect(r3 == nil)
        let r4 = b.extend(pieces(1, for: stroke))
        #expect(r4 == nil)
    }

    @Test func piecesThatDoNotJoinTheStrokeAreNotAdded() throws {
        var b = board()
        let strokeDone = b.begin(begin(UUID(), by: 1))
        let stroke = try #require(strokeDone)
        var stray = pieces(2, for: stroke)
        stray.base = WirePoint(x: 9_999, y: 9_999)
        let r5 = b.extend(stray)
        #expect(r5 == nil)
        #expect(b.segmentCount == 0)
    }

    @Test func aSecondEraseOfOneStrokeDoesNothing() throws {
        var b = board()
        let id = UUID()
        _ = b.begin(begin(id, by: 1))
        _ = b.end(StrokeEnd(stamp: OpStamp(sender: 1, seq: 2), strokeID: id, time: t0))
        let erase = Erase(stamp: OpStamp(sender: 2, seq: 1), strokeID: id, author: "Ben", time: t0)
        let r6 = b.erase(erase)
        #expect(r6 != nil)
        let r7 = b.erase(erase)
        #expect(r7 == nil)
        #expect(b.document.ops.count == 2)
    }

    @Test func strokesInProgressCountTowardsAFullSketch() throws {
        var b = board(maxOps: 2)
        _ = b.begin(begin(UUID(), by: 1))
        _ = b.begin(begin(UUID(), by: 2))
        #expect(b.refusal(of: begin(UUID(), by: 3)) == .sketchFull)
        #expect(!b.hasRoomForMark(by: "Ben"))
    }

    @Test func oneSenderMayHoldOnlySoManyStrokesOpen() {
        var b = board(open: 2)
        _ = b.begin(begin(UUID(), by: 1, seq: 1))
        _ = b.begin(begin(UUID(), by: 1, seq: 2))
        #expect(b.refusal(of: begin(UUID(), by: 1, seq: 3)) == .tooManyOpenStrokes)
        #expect(b.refusal(of: begin(UUID(), by: 2)) == nil)
    }

    @Test func piecesPastTheCapacityAreRefused() throws {
        var b = board(maxSegments: 4)
        let strokeDone = b.begin(begin(UUID(), by: 1))
        let stroke = try #require(strokeDone)
        #expect(b.refusal(of: pieces(4, for: stroke)) == nil)
        #expect(b.refusal(of: pieces(5, for: stroke)) == .sketchFull)
    }

    @Test func theEndCommitsOpenStrokesBySenderThenOrder() throws {
        var b = board()
        let late = UUID(), early = UUID(), host = UUID()
        _ = b.begin(begin(late, by: 2, seq: 5))
        _ = b.begin(begin(early, by: 2, seq: 1))
        _ = b.begin(begin(host, by: 0, seq: 9))
        let committed = b.commitLive(endedAt: t0)
        #expect(committed.map(\.sender) == [0, 2, 2])
        #expect(b.document.strokes.map(\.id) == [host, early, late])
        #expect(b.live.isEmpty)
    }

    @Test func aClearJoinsTheDocumentAndCountsTowardsTheFile() {
        var b = board()
        let before = b.fileBytes
        let op = b.clear(Clear(stamp: OpStamp(sender: 0, seq: 1), author: "Frau Li", time: t0))
        #expect(b.document.ops == [op])
        #expect(b.fileBytes == before + SketchCapacity.bytes(of: op))
    }
}
