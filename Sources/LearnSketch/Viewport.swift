/// Maps between widget pixels and canvas units. At zoom 1 the whole canvas
/// fits the widget, centred; zooming keeps the point under the fingers fixed.
public struct Viewport: Hashable, Sendable {
    public var canvasWidth: Double
    public var canvasHeight: Double
    public var widgetWidth: Double
    public var widgetHeight: Double
    public private(set) var zoom: Double = 1
    /// Canvas point shown at the widget's centre.
    public private(set) var center: Point

    public static let zoomRange = 1.0...4.0

    public init(canvasWidth: Double, canvasHeight: Double, widgetWidth: Double = 1, widgetHeight: Double = 1) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.widgetWidth = max(widgetWidth, 1)
        self.widgetHeight = max(widgetHeight, 1)
        center = Point(canvasWidth / 2, canvasHeight / 2)
    }

    public var fitScale: Double { min(widgetWidth / canvasWidth, widgetHeight / canvasHeight) }
    /// Widget pixels per canvas unit.
    public var scale: Double { fitScale * zoom }
    public var isZoomed: Bool { zoom > 1.001 }

    /// Widget position of canvas (0, 0).
    public var origin: Point {
        Point(widgetWidth / 2 - center.x * scale, widgetHeight / 2 - center.y * scale)
    }

    public func toCanvas(_ p: Point) -> Point {
        let o = origin
        return Point((p.x - o.x) / scale, (p.y - o.y) / scale)
    }

    public func toWidget(_ p: Point) -> Point {
        let o = origin
        return Point(o.x + p.x * scale, o.y + p.y * scale)
    }

    /// The part of the canvas that is visible, clipped to the canvas.
    public var visibleCanvasRect: Rect {
        let a = toCanvas(Point(0, 0)), b = toCanvas(Point(widgetWidth, widgetHeight))
        let x0 = max(0, a.x), y0 = max(0, a.y)
        let x1 = min(canvasWidth, b.x), y1 = min(canvasHeight, b.y)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public mutating func resize(width: Double, height: Double) {
        widgetWidth = max(width, 1)
        widgetHeight = max(height, 1)
        clampCenter()
    }

    /// Sets the zoom, keeping the canvas point under `anchor` (widget pixels) in place.
    public mutating func setZoom(_ newZoom: Double, anchor: Point) {
        let fixed = toCanvas(anchor)
        zoom = min(max(newZoom, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
        let o = Point(anchor.x - fixed.x * scale, anchor.y - fixed.y * scale)
        center = Point((widgetWidth / 2 - o.x) / scale, (widgetHeight / 2 - o.y) / scale)
        clampCenter()
    }

    /// Scrolls by a distance in widget pixels.
    public mutating func scroll(dx: Double, dy: Double) {
        center = Point(center.x + dx / scale, center.y + dy / scale)
        clampCenter()
    }

    /// Centres the view on a canvas point (a tap on the minimap).
    public mutating func centre(on p: Point) {
        center = p
        clampCenter()
    }

    /// Keeps the canvas covering the widget when it is larger than it, and
    /// centred along an axis where it is smaller.
    private mutating func clampCenter() {
        let halfW = widgetWidth / 2 / scale, halfH = widgetHeight / 2 / scale
        center.x = canvasWidth <= 2 * halfW ? canvasWidth / 2 : min(max(center.x, halfW), canvasWidth - halfW)
        center.y = canvasHeight <= 2 * halfH ? canvasHeight / 2 : min(max(center.y, halfH), canvasHeight - halfH)
    }
}
