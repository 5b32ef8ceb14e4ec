/// Logical canvas units; the canvas is scaled to the window.
public struct Point: Hashable, Codable, Sendable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    public func distance(to o: Point) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }
    public func midpoint(_ o: Point) -> Point { Point((x + o.x) / 2, (y + o.y) / 2) }
    public func lerp(_ o: Point, _ t: Double) -> Point { Point(x + (o.x - x) * t, y + (o.y - y) * t) }
}

public struct Rect: Hashable, Codable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)
    public var isNull: Bool { x == .infinity }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func union(_ p: Point) -> Rect {
        if isNull { return Rect(x: p.x, y: p.y, width: 0, height: 0) }
        let nx = min(x, p.x), ny = min(y, p.y)
        return Rect(x: nx, y: ny, width: max(maxX, p.x) - nx, height: max(maxY, p.y) - ny)
    }
    public func union(_ r: Rect) -> Rect {
        if r.isNull { return self }
        if isNull { return r }
        let nx = min(x, r.x), ny = min(y, r.y)
        return Rect(x: nx, y: ny, width: max(maxX, r.maxX) - nx, height: max(maxY, r.maxY) - ny)
    }
    public func insetBy(_ d: Double) -> Rect {
        isNull ? self : Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }
    public func intersects(_ r: Rect) -> Bool {
        !isNull && !r.isNull && x <= r.maxX && r.x <= maxX && y <= r.maxY && r.y <= maxY
    }
}

/// One cubic Bézier piece of a stroke; it starts where the previous one ended
/// (or at the stroke's `start`). A segment whose controls sit on its own end
/// points is an exact straight line, which renderers may draw as one.
public struct CubicSegment: Hashable, Codable, Sendable {
    public var c1: Point
    public var c2: Point
    public var end: Point
    public init(c1: Point, c2: Point, end: Point) { self.c1 = c1; self.c2 = c2; self.end = end }

    public static func line(from a: Point, to b: Point) -> CubicSegment {
        CubicSegment(c1: a, c2: b, end: b)
    }
    public func isLine(from start: Point) -> Bool { c1 == start && c2 == end }

    public func point(from p0: Point, at t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(a * p0.x + b * c1.x + c * c2.x + d * end.x,
                     a * p0.y + b * c1.y + c * c2.y + d * end.y)
    }
    /// The control polygon bounds the curve, which is all damage tracking needs.
    public func bounds(from p0: Point) -> Rect {
        Rect.null.union(p0).union(c1).union(c2).union(end)
    }
}
