import LearnModel

/// Ink to add on top of what a tile already shows: some consecutive pieces
/// of one stroke (as the pen or a peer extends it), or a dot.
public struct InkRun: Hashable, Sendable {
    public var color: RGBA
    public var width: Double
    /// Where the first piece starts (the previous piece's end).
    public var start: Point
    public var segments: [CubicSegment]
    /// A tap: a filled circle of radius `width` at `start`.
    public var isDot: Bool

    public init(color: RGBA, width: Double, start: Point, segments: [CubicSegment], isDot: Bool = false) {
        self.color = color
        self.width = width
        self.start = start
        self.segments = segments
        self.isDot = isDot
    }

    /// Canvas area the ink can touch, pen width included.
    public var bounds: Rect {
        var r = Rect.null.union(start)
        for s in segments { r = r.union(s.c1).union(s.c2).union(s.end) }
        return r.insetBy(-(isDot ? width : width / 2) - 1)
    }
}
