import Foundation
import LearnSketch

/// A point as it travels: canvas units × 64, rounded. Every point that enters
/// a session's document goes through this form, on the drawing device too, so
/// all devices hold bit-identical strokes (the rounding moves ink by at most
/// 1/128 unit, far below a pixel).
public struct WirePoint: Hashable, Sendable {
    public static let scale = 64.0
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) { self.x = x; self.y = y }

    public init(_ p: Point) {
        x = WirePoint.quantize(p.x)
        y = WirePoint.quantize(p.y)
    }

    public var point: Point { Point(Double(x) / WirePoint.scale, Double(y) / WirePoint.scale) }

    /// Non-finite values become 0 and far-off ones are clamped: the canvas is
    /// 1600 × 1000 units, Int32 / 64 allows ±33 million.
    static func quantize(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        let q = (v * scale).rounded()
        if q >= Double(Int32.max) { return .max }
        if q <= Double(Int32.min) { return .min }
        return Int32(q)
    }
}

/// One cubic segment in wire form; it starts where the previous one ended.
public struct WireSegment: Hashable, Sendable {
    public var c1: WirePoint
    public var c2: WirePoint
    public var end: WirePoint

    public init(c1: WirePoint, c2: WirePoint, end: WirePoint) { self.c1 = c1; self.c2 = c2; self.end = end }
    public init(_ s: CubicSegment) { self.init(c1: WirePoint(s.c1), c2: WirePoint(s.c2), end: WirePoint(s.end)) }

    public var cubic: CubicSegment { CubicSegment(c1: c1.point, c2: c2.point, end: end.point) }
}

/// Milliseconds since 1970. Dates are limited to ±2^47 ms (about 4,000
/// years either side) so that every wire time converts to a `Date` and back
/// to the same number.
public struct WireTime: Hashable, Comparable, Sendable {
    public static let limit: Int64 = 1 << 47
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = min(max(milliseconds, -WireTime.limit), WireTime.limit)
    }

    public init(_ date: Date) {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        self.init(milliseconds: ms.isFinite ? Int64(max(min(ms, 9e15), -9e15)) : 0)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    public static func < (a: WireTime, b: WireTime) -> Bool { a.milliseconds < b.milliseconds }
}

/// 8-bit RGBA: the felt pens are 8-bit colours, so their values survive exactly.
public struct RGBA8: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }

    public init(_ c: RGBA) {
        func q(_ v: Double) -> UInt8 { v.isFinite ? UInt8(min(max((v * 255).rounded(), 0), 255)) : 0 }
        self.init(r: q(c.r), g: q(c.g), b: q(c.b), a: q(c.a))
    }

    public var rgba: RGBA { RGBA(r: Double(r) / 255, g: Double(g) / 255, b: Double(b) / 255, a: Double(a) / 255) }
}

/// A non-negative length (pen width) in 1/64 units.
public struct WireLength: Hashable, Sendable {
    public var raw: UInt32
    public init(raw: UInt32) { self.raw = raw }
    public init(_ v: Double) {
        let q = v.isFinite ? (v * WirePoint.scale).rounded() : 0
        raw = q <= 0 ? 0 : (q >= Double(UInt32.max) ? .max : UInt32(q))
    }
    public var value: Double { Double(raw) / WirePoint.scale }
}

extension Stroke {
    /// The stroke as every device of a session holds it (see `WirePoint`).
    public var wireQuantized: Stroke {
        var s = self
        s.color = RGBA8(color).rgba
        s.width = WireLength(width).value
        s.start = WirePoint(start).point
        s.segments = segments.map { WireSegment($0).cubic }
        s.startedAt = WireTime(startedAt).date
        s.endedAt = WireTime(endedAt).date
        return s
    }
}
