import Foundation
@testable import LearnModel
@testable import LearnSketch

/// Fixed dates, so replay tests never depend on the wall clock.
public func sketchDate(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_750_000_000 + seconds) }

/// The direction a cubic leaves its start: the first control point that is
/// not on the start (a straight cubic's c1 sits on its start).
public func startDirection(_ s: CubicSegment, from p0: Point) -> Point {
    if s.c1 != p0 { return s.c1 - p0 }
    if s.c2 != p0 { return s.c2 - p0 }
    return s.end - p0
}

/// The direction a cubic arrives at its end.
public func endDirection(_ s: CubicSegment, from p0: Point) -> Point {
    if s.c2 != s.end { return s.end - s.c2 }
    if s.c1 != s.end { return s.end - s.c1 }
    return s.end - p0
}

public func length(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

/// Joints of a stroke as (incoming, outgoing) tangent directions.
public func joints(of stroke: Stroke) -> [(Point, Point)] {
    var out: [(Point, Point)] = []
    var p0 = stroke.start
    var previous: (segment: CubicSegment, from: Point)?
    for s in stroke.segments {
        if let previous {
            out.append((endDirection(previous.segment, from: previous.from), startDirection(s, from: p0)))
        }
        previous = (s, p0)
        p0 = s.end
    }
    return out
}

/// Distance from a point to a polyline.
public func distance(from p: Point, toPolyline poly: [Point]) -> Double {
    guard poly.count > 1 else { return poly.first.map { p.distance(to: $0) } ?? .infinity }
    var best = Double.infinity
    for i in 1..<poly.count {
        best = min(best, StrokeHitTest.distanceSquared(from: p, toSegment: poly[i - 1], poly[i]).squareRoot())
    }
    return best
}

/// A pointer path with random steps and turns, sharp ones included.
public func randomPath(_ rng: inout SplitMix64, count: Int, maxTurn: Double = 2.5) -> [Point] {
    var p = Point(rng.nextDouble(in: 100...1500), rng.nextDouble(in: 100...900))
    var heading = rng.nextDouble(in: 0...(2 * .pi))
    var out = [p]
    while out.count < count {
        heading += rng.nextDouble(in: -maxTurn...maxTurn)
        let step = rng.nextDouble(in: 0.5...25)
        p = Point(p.x + step * cos(heading), p.y + step * sin(heading))
        out.append(p)
    }
    return out
}

/// A finished stroke built from samples through the real builder.
public func buildStroke(_ samples: [Point], width: Double = 4, color: RGBA = PenColor.red.rgba, author: String = "Anna",
                 minDistance: Double = 0.3, at t: Double = 0) -> Stroke {
    var b = StrokeBuilder(author: author, color: color, width: width, start: samples[0], at: sketchDate(t),
                          minDistance: minDistance)
    b.add(contentsOf: samples.dropFirst())
    return b.finish(at: sketchDate(t + 1)).stroke
}

/// A stroke of straight segments through `points`, as Xournal++ would hold it.
public func polylineStroke(_ points: [Point], width: Double = 4, color: RGBA = PenColor.black.rgba,
                    id: UUID = UUID(), at t: Double = 0) -> Stroke {
    var segments: [CubicSegment] = []
    for i in points.indices.dropFirst() { segments.append(.line(from: points[i - 1], to: points[i])) }
    return Stroke(id: id, author: "Anna", color: color, width: width, start: points[0], segments: segments,
                  startedAt: sketchDate(t), endedAt: sketchDate(t + 1))
}
