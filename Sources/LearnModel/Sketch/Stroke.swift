import Foundation

/// A finished stroke: immutable once made. A stroke without segments is a dot
/// of radius `width` at `start`: a tap leaves a visible dot, as a pen would.
public struct Stroke: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var author: String
    /// Colour and width are stored as values, not pen indices, so strokes
    /// imported from Xournal++ keep any colour and width they had.
    public var color: RGBA
    public var width: Double
    public var start: Point
    public var segments: [CubicSegment]
    public var startedAt: Date
    public var endedAt: Date

    public init(id: UUID = UUID(), author: String, color: RGBA, width: Double, start: Point,
                segments: [CubicSegment], startedAt: Date, endedAt: Date) {
        self.id = id; self.author = author; self.color = color; self.width = width
        self.start = start; self.segments = segments; self.startedAt = startedAt; self.endedAt = endedAt
    }

    public var isDot: Bool { segments.isEmpty }

    /// Bounds of the ink, including the line width.
    public var bounds: Rect {
        var r = Rect.null.union(start)
        var p = start
        for s in segments { r = r.union(s.bounds(from: p)); p = s.end }
        let pad = isDot ? width : width / 2
        return r.insetBy(-pad)
    }
}
