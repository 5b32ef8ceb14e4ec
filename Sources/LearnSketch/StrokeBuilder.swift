import Foundation

/// Turns pointer samples (canvas units) into a smoothed stroke while the pen
/// moves, one cubic segment at a time, smoothed the way the iPad original smooths ink.
///
/// The method: once five samples are pending, the 4th is moved onto the
/// midpoint of the 3rd and 5th and samples 1–4 become one cubic
/// (start, c1, c2, end). The next segment starts at the moved 4th sample with
/// the 5th as its first control point, so the end tangent of one segment and
/// the start tangent of the next are the same vector: joints never show a
/// corner. Segments are final as soon as they are returned, so the canvas can
/// draw them into its cached surface and the session can send them at once.
public struct StrokeBuilder: Sendable {
    public let id: UUID
    public let author: String
    public let color: RGBA
    public let width: Double
    public let start: Point
    public let startedAt: Date
    /// Samples closer than this to the previous kept sample are dropped: they
    /// are pointer jitter and would only crumple the curve.
    public let minDistance: Double

    /// Segments emitted so far; they start at `start`.
    public private(set) var segments: [CubicSegment] = []
    public private(set) var isFinished = false

    /// The end of the last emitted segment (or `start`) followed by the kept
    /// samples not yet fitted. Never empty. The last element is always the
    /// newest raw sample, so it doubles as the jitter-filter reference.
    private var window: [Point]

    public init(id: UUID = UUID(), author: String, color: RGBA, width: Double, start: Point, at date: Date,
                minDistance: Double = 0.3) {
        self.id = id
        self.author = author
        self.color = color
        self.width = width
        self.start = start
        self.startedAt = date
        self.minDistance = max(0, minDistance)
        window = [start]
        window.reserveCapacity(5)
    }

    public init(id: UUID = UUID(), author: String, pen: Pen, start: Point, at date: Date, minDistance: Double = 0.3) {
        self.init(id: id, author: author, color: pen.color.rgba, width: pen.width.units, start: start, at: date,
                  minDistance: minDistance)
    }

    /// Feeds one sample; returns the segments that became final (zero or one).
    /// Samples after `finish` and non-finite samples are ignored.
    @discardableResult
    public mutating func add(_ p: Point) -> [CubicSegment] {
        guard !isFinished, p.x.isFinite, p.y.isFinite else { return [] }
        guard let last = window.last, p.distance(to: last) >= minDistance, p != last else { return [] }
        window.append(p)
        guard window.count == 5 else { return [] }
        let joint = window[2].midpoint(window[4])
        let segment = CubicSegment(c1: window[1], c2: window[2], end: joint)
        segments.append(segment)
        window = [joint, window[4]]
        return [segment]
    }

    /// Feeds several samples at once (GTK hands over motion history in batches).
    @discardableResult
    public mutating func add<S: Sequence>(contentsOf points: S) -> [CubicSegment] where S.Element == Point {
        var out: [CubicSegment] = []
        for p in points { out += add(p) }
        return out
    }

    /// The end of the last emitted segment (or `start`) followed by the samples
    /// not yet fitted: what a live preview draws after `segments`.
    public var pendingTail: [Point] { window }

    /// The segment `finish` would emit right now, for a smoother live preview
    /// than the raw `pendingTail` polyline.
    public var tailPreview: [CubicSegment] { Self.tail(of: window) }

    /// Where the ink currently ends.
    public var currentEnd: Point { window[window.count - 1] }

    /// Ends the stroke. The pending samples (fewer than five) still become
    /// ink: `tail` holds the segment that draws them, and `stroke` holds every
    /// segment. A tap without movement gives a stroke without segments (a dot).
    public mutating func finish(at date: Date) -> (tail: [CubicSegment], stroke: Stroke) {
        let tail = isFinished ? [] : Self.tail(of: window)
        if !isFinished {
            segments += tail
            window = [currentEnd]
            isFinished = true
        }
        let stroke = Stroke(id: id, author: author, color: color, width: width, start: start,
                            segments: segments, startedAt: startedAt, endedAt: max(date, startedAt))
        return (tail, stroke)
    }

    /// The closing segment for 1–4 pending points. Its start tangent runs
    /// along window[1] − window[0], which is the previous segment's end
    /// tangent (window[0] is the midpoint between the previous c2 and
    /// window[1]), so the tail joins without a corner too.
    static func tail(of w: [Point]) -> [CubicSegment] {
        switch w.count {
        case 2:
            return [.line(from: w[0], to: w[1])]
        case 3:
            // Quadratic through control w[1], raised to a cubic.
            let c1 = w[0].lerp(w[1], 2.0 / 3.0)
            let c2 = w[2].lerp(w[1], 2.0 / 3.0)
            return [CubicSegment(c1: c1, c2: c2, end: w[2])]
        case 4:
            return [CubicSegment(c1: w[1], c2: w[2], end: w[3])]
        default:
            return []
        }
    }
}
