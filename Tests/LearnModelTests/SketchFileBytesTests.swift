import Foundation
import Testing
@testable import LearnModel

/// The host's estimate of a shared sketch's `.teamsketch` size must never
/// be below the real file, or a sketch it let grow could be too big to open.
@Suite struct SketchFileBytesTests {
    /// The widest numbers a session's wire forms allow, and a long name
    /// full of characters JSON escapes.
    func worstStroke(segments: Int, author: String) -> Stroke {
        let far = WirePoint(x: -63_999_999, y: -63_999_999).point    // -999999.984375
        let seg = CubicSegment(c1: far, c2: far, end: far)
        let late = WireTime(SketchLimits.dates.upperBound).date.addingTimeInterval(-0.001)
        return Stroke(id: UUID(), author: author, color: RGBA8(r: 26, g: 225, b: 254, a: 3).rgba,
                      width: WireLength(raw: 63_999).value, start: far, segments: Array(repeating: seg, count: segments),
                      startedAt: late, endedAt: late)
    }

    func fileBytes(_ ops: [SketchOp]) throws -> Int {
        let meta = SketchMeta(name: String(repeating: "\"", count: 200), width: 20_000, height: 20_000,
                              createdAt: WireTime(SketchLimits.dates.upperBound).date)
        return try SketchFileFormat.encode(SketchDocument(meta: meta, ops: ops)).count
    }

    @Test(arguments: ["", "Anna", String(repeating: "\"", count: 200), String(repeating: "\\\\", count: 100),
                      String(repeating: "👩‍🎨", count: 20)])
    func theEstimateIsAnUpperBound(_ author: String) throws {
        let empty = try fileBytes([])
        #expect(empty <= SketchCapacity.metaBytes)
        for n in [0, 1, 7, 500] {
            let op = SketchOp.addStroke(worstStroke(segments: n, author: author))
            let real = try fileBytes([op]) - empty
            let estimate = SketchCapacity.bytes(strokeBy: author) + n * SketchCapacity.bytesPerSegment
            #expect(real <= estimate, "\(n) pieces by \(author.prefix(8)): \(real) > \(estimate)")
        }
        let at = WireTime(SketchLimits.dates.upperBound).date.addingTimeInterval(-0.001)
        for op in [SketchOp.eraseStroke(id: UUID(), by: author, at: at), .clear(by: author, at: at)] {
            let real = try fileBytes([op]) - empty
            #expect(real <= SketchCapacity.bytes(markBy: author), "\(op)")
        }
    }

    @Test func theDefaultLeavesRoomForTheSketchsOwnLines() {
        #expect(SketchCapacity.sketchFile.maxFileBytes + SketchCapacity.metaBytes <= SketchLimits.maxFileBytes)
    }
}
