import Foundation
import LearnBasics

/// What a sketch may hold, whoever made it. Files and the network are
/// hostile: a value outside these bounds is refused when it comes in, so no
/// later step (drawing, thumbnails, export, the store's clock) ever meets a
/// number it cannot convert. The bounds are far beyond any real class sketch
/// (the benchmark sketch has 5,000 strokes of 60 points) and far inside what
/// Cairo, Int32 pixel sizes and millisecond timestamps can carry.
public enum SketchLimits {
    /// Canvas width and height, in canvas units. Teamsketch's own canvas is
    /// 1600 × 1000; an A0 page from Xournal++ is 2384 × 3370 points.
    public static let canvasSide: ClosedRange<Double> = 1...20_000
    /// How far a point may lie from the canvas's origin, in canvas units. Ink
    /// may run off the page, but not to where doubles lose their pixels.
    public static let coordinateMagnitude = 1_000_000.0
    /// Stroke width in canvas units (a dot's radius for a tap); also each
    /// of a pressure stroke's per-segment widths.
    public static let penWidth: ClosedRange<Double> = 0.01...1_000
    /// A fill's opacity.
    public static let fillOpacity: ClosedRange<Double> = 0...1
    /// Entries of a dash pattern (Xournal++'s own have two or four; a
    /// custom one rarely more than a handful), and each entry's length in
    /// canvas units.
    public static let maxDashes = 32
    public static let dashLength: ClosedRange<Double> = 0...1_000
    /// The least a dash pattern's lengths may add up to, in canvas units:
    /// all zeros is no pattern Cairo can draw, and a finer one is no
    /// pattern anyone sees (Xournal++'s finest, `dot`, repeats every 3.5)
    /// but costs a drawing step per repeat.
    public static let minDashPeriod = 0.1
    /// Dates on sketches and ops: from 2000 to 2200. Anything else is a
    /// damaged or forged file, and would overflow millisecond clocks.
    public static let dates: ClosedRange<Date> =
        Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 7_258_118_400)
    /// A sketch's time limit in minutes; 0 means none. Two hours is longer
    /// than any lesson.
    public static let timeLimitMinutes: ClosedRange<Int> = 0...120
    /// Ops in one sketch (strokes, erasures, clears).
    public static let maxOps = 200_000
    /// Segments in one stroke, and in the whole sketch.
    public static let maxSegmentsPerStroke = 100_000
    public static let maxSegments = 3_000_000
    /// Bytes of a sketch file read from disk, and of the XML a `.xopp` may
    /// unpack to: enough for the largest sketch the limits above allow, and
    /// a cap on what a gzip bomb can make us allocate.
    public static let maxFileBytes = 64 << 20
    public static let maxInflatedBytes = 128 << 20
    /// Characters in a sketch's name or a stroke's author.
    public static let maxNameLength = DisplayName.maxScalars
}
