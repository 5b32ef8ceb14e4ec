import LearnModel

/// The overview shown while zoomed: where it sits in the widget, which part
/// of it the viewport frames, and which canvas point a tap on it means.
public struct MinimapModel: Hashable, Sendable {
    public static let width = 200.0
    /// Distance from the widget's bottom-right corner.
    public static let inset = 16.0

    public let viewport: Viewport

    public init(_ viewport: Viewport) { self.viewport = viewport }

    /// Where the minimap is drawn, in widget units.
    public var rect: Rect {
        let w = Self.width, h = w * viewport.canvasHeight / viewport.canvasWidth
        return Rect(x: viewport.widgetWidth - w - Self.inset, y: viewport.widgetHeight - h - Self.inset, width: w, height: h)
    }

    /// Minimap pixels per canvas unit.
    public var scale: Double { Self.width / viewport.canvasWidth }

    /// The visible part of the canvas, framed on the minimap (widget units).
    public var frame: Rect {
        let r = rect, v = viewport.visibleCanvasRect, k = scale
        return Rect(x: r.x + v.x * k, y: r.y + v.y * k, width: v.width * k, height: v.height * k)
    }

    public func contains(_ p: Point) -> Bool {
        let r = rect
        return p.x >= r.x && p.x <= r.maxX && p.y >= r.y && p.y <= r.maxY
    }

    /// The canvas point under a tap at `p` (widget units).
    public func canvasPoint(at p: Point) -> Point {
        let r = rect
        return Point((p.x - r.x) / r.width * viewport.canvasWidth, (p.y - r.y) / r.height * viewport.canvasHeight)
    }
}
