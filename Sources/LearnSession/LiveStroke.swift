import Foundation
import LearnSketch

/// A stroke that is still being drawn: what its `strokeBegin` said and the
/// segments received so far. Host and members keep one per stroke between
/// begin and end; the UI draws them live with the sender's pen.
public struct LiveStroke: Hashable, Sendable {
    public var begin: StrokeBegin
    public var segments: [WireSegment]
    /// The sender's seq of the last op applied to this stroke.
    public var lastSeq: UInt64

    public init(begin: StrokeBegin, segments: [WireSegment] = [], lastSeq: UInt64? = nil) {
        self.begin = begin
        self.segments = segments
        self.lastSeq = lastSeq ?? begin.stamp.seq
    }

    public var id: UUID { begin.strokeID }
    public var sender: MemberIndex { begin.stamp.sender }
    public var author: String { begin.author }
    public var color: RGBA { begin.color.rgba }
    public var width: Double { begin.width.value }
    public var start: Point { begin.start.point }
    public var startedAt: Date { begin.time.date }
    /// Where the ink ends now: the base the next batch must name.
    public var wireEnd: WirePoint { segments.last?.end ?? begin.start }
    public var cubicSegments: [CubicSegment] { segments.map(\.cubic) }

    /// Appends a batch if it continues this stroke; false if it does not fit
    /// (wrong base) or would pass the per-stroke limit.
    mutating func append(_ batch: StrokeSegments) -> Bool {
        guard batch.base == wireEnd,
              segments.count + batch.segments.count <= SessionLimits.maxSegmentsPerStroke else { return false }
        segments += batch.segments
        lastSeq = batch.stamp.seq
        return true
    }

    /// The finished stroke; `endedAt` never precedes the start.
    func stroke(endedAt: WireTime) -> Stroke {
        Stroke(id: begin.strokeID, author: begin.author, color: color, width: width, start: start,
               segments: cubicSegments, startedAt: startedAt, endedAt: max(endedAt, begin.time).date)
    }

    /// Commit order for strokes still open when a session ends: by sender,
    /// then by when they began. Host and members sort alike.
    static func commitOrder(_ a: LiveStroke, _ b: LiveStroke) -> Bool {
        (a.sender, a.begin.stamp.seq) < (b.sender, b.begin.stamp.seq)
    }
}
