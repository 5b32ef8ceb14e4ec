/// Turns a stroke's cubic segments into a polyline, for formats and tests
/// that only know straight lines (Xournal++ export, hit-testing).
public enum StrokeFlattening {
    /// Maximum distance between the curve and its polyline, in canvas units.
    /// A quarter unit is far below a fine pen's width, so nobody sees it.
    public static let defaultTolerance = 0.25

    /// The polyline through the stroke's ink, starting at `start`. Straight
    /// segments add only their end point; each cubic is cut into as many equal
    /// parameter steps as its curvature needs to stay within `tolerance`.
    /// A dot gives just `[start]`.
    public static func points(of stroke: Stroke, tolerance: Double = defaultTolerance) -> [Point] {
        points(start: stroke.start, segments: stroke.segments, tolerance: tolerance)
    }

    public static func points(start: Point, segments: [CubicSegment],
                              tolerance: Double = defaultTolerance) -> [Point] {
        var out: [Point] = [start]
        out.reserveCapacity(1 + segments.count * 4)
        var p0 = start
        for s in segments {
            appendPoints(of: s, from: p0, tolerance: tolerance, to: &out)
            p0 = s.end
        }
        return out
    }

    /// Appends the polyline for one segment, without its start point (the
    /// caller already has it).
    public static func appendPoints(of s: CubicSegment, from p0: Point, tolerance: Double,
                                    to out: inout [Point]) {
        let n = steps(for: s, from: p0, tolerance: tolerance)
        if n > 1 {
            let dt = 1.0 / Double(n)
            for i in 1..<n { out.append(s.point(from: p0, at: Double(i) * dt)) }
        }
        out.append(s.end)
    }

    /// Number of equal parameter steps that keep a cubic within `tolerance` of
    /// its chords. Uniform subdivision into n pieces deviates by at most
    /// M / (8 n²), where M = 6 · max |second difference of the controls|
    /// bounds the second derivative; solving for n gives the formula below.
    /// Straight segments (controls on the chord) need one step.
    public static func steps(for s: CubicSegment, from p0: Point, tolerance: Double) -> Int {
        if s.isLine(from: p0) { return 1 }
        let ax = p0.x - 2 * s.c1.x + s.c2.x, ay = p0.y - 2 * s.c1.y + s.c2.y
        let bx = s.c1.x - 2 * s.c2.x + s.end.x, by = s.c1.y - 2 * s.c2.y + s.end.y
        let d = max(ax * ax + ay * ay, bx * bx + by * by).squareRoot()
        let tol = max(tolerance, 1e-6)
        let n = (0.75 * d / tol).squareRoot().rounded(.up)
        // NaN or absurd controls must not make a caller allocate millions of points.
        guard n.isFinite else { return 1 }
        return Int(min(max(n, 1), 256))
    }
}

extension Stroke {
    /// The stroke's ink as a polyline; see `StrokeFlattening.points(of:tolerance:)`.
    public func flattened(tolerance: Double = StrokeFlattening.defaultTolerance) -> [Point] {
        StrokeFlattening.points(of: self, tolerance: tolerance)
    }
}
