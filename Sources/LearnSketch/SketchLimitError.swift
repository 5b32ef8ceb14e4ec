import Foundation

/// Which limit of `SketchLimits` a sketch broke, with the offending value, so
/// the message can say what is wrong rather than just "damaged".
public enum SketchLimitError: Error, Hashable, Sendable, LocalizedError {
    case canvasSize(width: Double, height: Double)
    case coordinate(stroke: Int, value: Double)
    case penWidth(stroke: Int, value: Double)
    case color(stroke: Int)
    /// A pressure stroke whose widths are not one per segment.
    case pressureWidths(stroke: Int, count: Int, segments: Int)
    case fillOpacity(stroke: Int, value: Double)
    /// A dash pattern of no entries or too many.
    case dashCount(stroke: Int, count: Int)
    case dashLength(stroke: Int, value: Double)
    /// A dash pattern whose lengths add up to less than `SketchLimits.minDashPeriod`.
    case dashPeriod(stroke: Int, total: Double)
    /// Seconds since 1970, not a `Date`: describing a Date this far out traps
    /// in Foundation, and errors get described when they are shown.
    case date(secondsSince1970: Double)
    case tooManyOps(Int)
    case tooManySegments(stroke: Int, count: Int)
    case tooManySegmentsInSketch(Int)
    case nameTooLong(Int)

    public var errorDescription: String? {
        switch self {
        case .canvasSize(let w, let h):
            "The page size \(Self.show(w)) × \(Self.show(h)) is outside what Teamsketch can show "
                + "(each side \(Self.show(SketchLimits.canvasSide.lowerBound))–\(Self.show(SketchLimits.canvasSide.upperBound)))."
        case .coordinate(let i, let v):
            "Stroke \(i + 1) has a point at \(Self.show(v)), far outside the page."
        case .penWidth(let i, let v):
            "Stroke \(i + 1) has a pen width of \(Self.show(v)), which is not possible."
        case .color(let i):
            "Stroke \(i + 1) has a colour that is not possible."
        case .pressureWidths(let i, let n, let segments):
            "Stroke \(i + 1) has \(n) pressure widths for \(segments) pieces; it needs one per piece."
        case .fillOpacity(let i, let v):
            "Stroke \(i + 1) has a fill opacity of \(Self.show(v)), outside 0–1."
        case .dashCount(let i, let n):
            "Stroke \(i + 1) has a dash pattern of \(n) lengths; Teamsketch draws patterns of 1–"
                + "\(SketchLimits.maxDashes) lengths."
        case .dashLength(let i, let v):
            "Stroke \(i + 1) has a dash of length \(Self.show(v)), outside "
                + "\(Self.show(SketchLimits.dashLength.lowerBound))–\(Self.show(SketchLimits.dashLength.upperBound))."
        case .dashPeriod(let i, let total):
            "Stroke \(i + 1) has a dash pattern only \(Self.show(total)) long; it must repeat every "
                + "\(Self.show(SketchLimits.minDashPeriod)) or more."
        case .date(let t):
            "The file holds the date \(Self.show(t)) s after 1970, which is not possible."
        case .tooManyOps(let n):
            "The sketch holds \(n) drawing steps; Teamsketch opens at most \(SketchLimits.maxOps)."
        case .tooManySegments(let i, let n):
            "Stroke \(i + 1) has \(n) pieces; Teamsketch opens at most \(SketchLimits.maxSegmentsPerStroke) per stroke."
        case .tooManySegmentsInSketch(let n):
            "The sketch holds \(n) stroke pieces; Teamsketch opens at most \(SketchLimits.maxSegments)."
        case .nameTooLong(let n):
            "A name in the file is \(n) characters long; at most \(SketchLimits.maxNameLength) are allowed."
        }
    }

    /// Numbers as a person reads them; NaN and infinities by name.
    private static func show(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "∞" : "-∞" }
        if abs(v) < 1e9, v == v.rounded() { return String(Int64(v)) }
        return String(v)
    }
}
