import Foundation
import LearnSketch

/// The file limits (`SketchLimits`) applied to ops in wire form. The wire can
/// carry wider values (any Int32 coordinate, widths up to 2^32/64, times of
/// ±4,000 years); a sketch made over the network must still save, export and
/// open again as a file, so the host refuses what lies outside, and a member
/// refuses the same from a host.
public enum WireSketchLimits {
    /// ±1,000,000 canvas units in 1/64 units.
    static let maxCoordinate = Int64(SketchLimits.coordinateMagnitude * WirePoint.scale)

    public static func contains(_ p: WirePoint) -> Bool {
        abs(Int64(p.x)) <= maxCoordinate && abs(Int64(p.y)) <= maxCoordinate
    }

    public static func contains(_ segments: [WireSegment]) -> Bool {
        segments.allSatisfy { contains($0.c1) && contains($0.c2) && contains($0.end) }
    }

    public static func contains(width: WireLength) -> Bool { SketchLimits.penWidth.contains(width.value) }

    public static func contains(_ t: WireTime) -> Bool { (try? SketchValidation.check(date: t.date)) != nil }

    /// A stroke begin's pen, start and time (the author is the host's to set).
    public static func contains(_ b: StrokeBegin) -> Bool {
        contains(width: b.width) && contains(b.start) && contains(b.time)
    }

    /// `t` moved into the date range (a rogue host's end time still commits
    /// the strokes in progress at a date a file can hold).
    static func clamped(_ t: WireTime) -> WireTime {
        let r = SketchLimits.dates
        return min(max(t, WireTime(r.lowerBound)), WireTime(r.upperBound))
    }
}
