import Foundation

/// Which strokes the eraser touches. The eraser removes whole strokes
/// (never parts of them), so all it needs is "does this circle touch that ink".
///
/// Ink counts with its width: a line's ink reaches `width / 2` from its centre
/// line, a dot's reaches `width` (its radius). Strokes are scanned topmost
/// first (the document draws later strokes over earlier ones) and rejected by
/// their bounds before any curve is flattened, so a pass over thousands of
/// strokes costs little more than their bounding boxes.
public enum StrokeHitTest {
    /// Flattening tolerance for hit-testing: finer than any pupil can aim.
    public static let tolerance = 0.5

    /// The id of the topmost stroke whose ink lies within `radius` of `point`.
    public static func topmostStroke(in strokes: [Stroke], at point: Point, radius: Double) -> UUID? {
        for s in strokes.reversed() where hits(s, from: point, to: point, radius: radius) {
            return s.id
        }
        return nil
    }

    public static func topmostStroke(in doc: SketchDocument, at point: Point, radius: Double) -> UUID? {
        topmostStroke(in: doc.strokes, at: point, radius: radius)
    }

    /// Every stroke an eraser of `radius` touches while dragged in a straight
    /// line from `a` to `b`, topmost first. A fast drag between two motion
    /// events must not skip the strokes it crossed.
    public static func strokes(in strokes: [Stroke], hitAlong a: Point, to b: Point, radius: Double) -> [UUID] {
        strokes.reversed().filter { hits($0, from: a, to: b, radius: radius) }.map(\.id)
    }

    public static func strokes(in doc: SketchDocument, hitAlong a: Point, to b: Point, radius: Double) -> [UUID] {
        strokes(in: doc.strokes, hitAlong: a, to: b, radius: radius)
    }

    /// Whether the eraser path from `a` to `b` (a point when a == b) with
    /// `radius` touches the stroke's ink.
    public static func hits(_ stroke: Stroke, from a: Point, to b: Point, radius: Double) -> Bool {
        // A pressure stroke's ink reaches as far as each segment's own width.
        let reach = max(0, radius) + (stroke.isDot ? stroke.width : stroke.maxWidth / 2)
        let path = Rect.null.union(a).union(b).insetBy(-reach)
        guard stroke.bounds.intersects(path) else { return false }
        if stroke.isDot {
            return Self.distanceSquared(from: stroke.start, toSegment: a, b) <= reach * reach
        }
        var p0 = stroke.start
        var poly: [Point] = []
        for (k, s) in stroke.segments.enumerated() {
            let reach = stroke.widths == nil ? reach : max(0, radius) + stroke.width(ofSegment: k) / 2
            let reach2 = reach * reach
            // Per-segment bounds keep long strokes cheap: only the pieces near
            // the eraser are flattened.
            if s.bounds(from: p0).insetBy(-reach).intersects(path) {
                poly.removeAll(keepingCapacity: true)
                poly.append(p0)
                StrokeFlattening.appendPoints(of: s, from: p0, tolerance: tolerance, to: &poly)
                for i in 1..<poly.count
                where Self.segmentDistanceSquared(poly[i - 1], poly[i], a, b) <= reach2 {
                    return true
                }
            }
            p0 = s.end
        }
        // A filled shape (from Xournal++) is ink inside too: rubbing its
        // middle takes it. A path that crossed its outline was found above,
        // so only a path that starts or ends inside is left to find.
        guard let fill = stroke.fill, fill > 0 else { return false }
        let box = stroke.bounds
        let inBox = { (p: Point) in !box.isNull && (box.x...box.maxX).contains(p.x) && (box.y...box.maxY).contains(p.y) }
        let ends = (a == b ? [a] : [a, b]).filter(inBox)
        guard !ends.isEmpty else { return false }
        // Flattened once for both ends of the path, and closed.
        let outline = stroke.flattened(tolerance: tolerance) + [stroke.start]
        return ends.contains { winding(of: outline, around: $0) != 0 }
    }

    /// How often a closed polyline winds round a point; nonzero is inside,
    /// as Cairo fills.
    static func winding(of outline: [Point], around point: Point) -> Int {
        var winding = 0
        for i in 1..<outline.count {
            let p = outline[i - 1], q = outline[i]
            let side = (q.x - p.x) * (point.y - p.y) - (point.x - p.x) * (q.y - p.y)
            if p.y <= point.y {
                if q.y > point.y && side > 0 { winding += 1 }
            } else if q.y <= point.y && side < 0 {
                winding -= 1
            }
        }
        return winding
    }

    // MARK: - Distances

    static func distanceSquared(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = 0.0
        if len2 > 0 {
            t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2
            t = min(max(t, 0), 1)
        }
        let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
        return qx * qx + qy * qy
    }

    /// Squared distance between segments pq and rs: zero when they cross,
    /// otherwise the closest end point to the other segment.
    package static func segmentDistanceSquared(_ p: Point, _ q: Point, _ r: Point, _ s: Point) -> Double {
        if segmentsCross(p, q, r, s) { return 0 }
        return min(distanceSquared(from: p, toSegment: r, s), distanceSquared(from: q, toSegment: r, s),
                   distanceSquared(from: r, toSegment: p, q), distanceSquared(from: s, toSegment: p, q))
    }

    private static func segmentsCross(_ p: Point, _ q: Point, _ r: Point, _ s: Point) -> Bool {
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        let d1 = cross(r, s, p), d2 = cross(r, s, q), d3 = cross(p, q, r), d4 = cross(p, q, s)
        // Touching and collinear cases come out as distance zero anyway.
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }
}
