import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct StrokeHitTestTests {
    /// Horizontal line from (100, 100) to (300, 100), 10 units wide.
    let line = polylineStroke([Point(100, 100), Point(300, 100)], width: 10)

    @Test func pointHitsInkIncludingItsWidth() {
        // Ink reaches 5 units from the centre line, the eraser 3 more.
        #expect(StrokeHitTest.topmostStroke(in: [line], at: Point(200, 107.9), radius: 3) == line.id)
        #expect(StrokeHitTest.topmostStroke(in: [line], at: Point(200, 108.1), radius: 3) == nil)
        // Round caps: past the end point too.
        #expect(StrokeHitTest.topmostStroke(in: [line], at: Point(307.9, 100), radius: 3) == line.id)
        #expect(StrokeHitTest.topmostStroke(in: [line], at: Point(306, 106), radius: 3) == nil)
    }

    /// A pressure stroke's ink is as wide as each segment's own width.
    @Test func pressureSegmentsHitWithinTheirOwnWidth() {
        var pressure = polylineStroke([Point(100, 100), Point(200, 100), Point(300, 100)], width: 4)
        pressure.widths = [2, 20]
        #expect(StrokeHitTest.topmostStroke(in: [pressure], at: Point(150, 101.4), radius: 0.5) == pressure.id)
        #expect(StrokeHitTest.topmostStroke(in: [pressure], at: Point(150, 101.6), radius: 0.5) == nil)
        #expect(StrokeHitTest.topmostStroke(in: [pressure], at: Point(250, 110.4), radius: 0.5) == pressure.id)
        #expect(StrokeHitTest.topmostStroke(in: [pressure], at: Point(250, 111), radius: 0.5) == nil)
    }

    /// A filled square from Xournal++ is ink inside too; an open one only
    /// along its line; a fill of opacity 0 shows nothing, so is not hit.
    @Test func theMiddleOfAFilledShapeIsInk() {
        let corners = [Point(100, 100), Point(300, 100), Point(300, 300), Point(100, 300)]
        var filled = polylineStroke(corners, width: 2)
        filled.fill = 0.5
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(200, 200), radius: 3) == filled.id)
        // The closing side (from the last corner back to the first) bounds it too.
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(90, 200), radius: 3) == nil)
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(200, 310), radius: 3) == nil)
        // A drag that stays inside takes it, like one that crosses the line.
        #expect(StrokeHitTest.strokes(in: [filled], hitAlong: Point(150, 150), to: Point(250, 250), radius: 3) == [filled.id])

        let open = polylineStroke(corners, width: 2)
        #expect(StrokeHitTest.topmostStroke(in: [open], at: Point(200, 200), radius: 3) == nil)
        var invisible = filled
        invisible.fill = 0
        #expect(StrokeHitTest.topmostStroke(in: [invisible], at: Point(200, 200), radius: 3) == nil)
    }

    /// Cairo fills by the nonzero winding rule: where a star's outline
    /// crosses itself, the middle is still inside.
    @Test func aSelfCrossingFillFollowsTheNonzeroRule() {
        let star = [Point(200, 20), Point(306, 346), Point(29, 144), Point(371, 144), Point(94, 346)]
        var filled = polylineStroke(star, width: 1)
        filled.fill = 1
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(200, 200), radius: 0.5) == filled.id)
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(200, 100), radius: 0.5) == filled.id)
        #expect(StrokeHitTest.topmostStroke(in: [filled], at: Point(60, 300), radius: 0.5) == nil)
    }

    @Test func topmostStrokeWins() {
        let under = polylineStroke([Point(0, 0), Point(400, 400)], width: 4)
        let over = polylineStroke([Point(0, 400), Point(400, 0)], width: 4)
        let doc = SketchDocument(meta: SketchMeta(name: "x"), ops: [.addStroke(under), .addStroke(over)])
        #expect(StrokeHitTest.topmostStroke(in: doc, at: Point(200, 200), radius: 1) == over.id)
        #expect(StrokeHitTest.topmostStroke(in: doc, at: Point(50, 50), radius: 1) == under.id)
        #expect(StrokeHitTest.topmostStroke(in: doc, at: Point(200, 100), radius: 1) == nil)
    }

    @Test func dotsHitWithinTheirRadius() {
        let dot = Stroke(author: "Anna", color: PenColor.black.rgba, width: 6, start: Point(50, 50), segments: [],
                         startedAt: sketchDate(0), endedAt: sketchDate(0))
        #expect(StrokeHitTest.topmostStroke(in: [dot], at: Point(50, 57.9), radius: 2) == dot.id)
        #expect(StrokeHitTest.topmostStroke(in: [dot], at: Point(50, 58.1), radius: 2) == nil)
    }

    @Test func curvesAreTestedOnTheCurveNotTheControlPolygon() {
        // An arch whose control points stand 25 units above its top.
        let arch = Stroke(author: "Anna", color: PenColor.black.rgba, width: 2, start: Point(0, 0),
                          segments: [CubicSegment(c1: Point(0, 100), c2: Point(100, 100), end: Point(100, 0))],
                          startedAt: sketchDate(0), endedAt: sketchDate(0))
        #expect(StrokeHitTest.topmostStroke(in: [arch], at: Point(50, 75.5), radius: 1) == arch.id)
        #expect(StrokeHitTest.topmostStroke(in: [arch], at: Point(50, 95), radius: 5) == nil)
        #expect(StrokeHitTest.topmostStroke(in: [arch], at: Point(1, 50), radius: 5) == nil)
        // Near the curve's side, far from any control polygon vertex.
        let side = arch.segments[0].point(from: arch.start, at: 0.2)
        #expect(StrokeHitTest.topmostStroke(in: [arch], at: Point(side.x + 1.5, side.y), radius: 1) == arch.id)
    }

    @Test func dragPathHitsEverythingItCrosses() {
        let a = polylineStroke([Point(100, 0), Point(100, 500)], width: 4)
        let b = polylineStroke([Point(200, 0), Point(200, 500)], width: 4)
        let c = polylineStroke([Point(900, 0), Point(900, 500)], width: 4)
        // A fast drag: both end points are far from any stroke.
        let hits = StrokeHitTest.strokes(in: [a, b, c], hitAlong: Point(50, 250), to: Point(400, 260), radius: 2)
        #expect(hits == [b.id, a.id])
        // Parallel and 10 units off: misses.
        #expect(StrokeHitTest.strokes(in: [a, b, c], hitAlong: Point(110, 0), to: Point(110, 500), radius: 2).isEmpty)
        // A zero-length drag is a point test.
        #expect(StrokeHitTest.strokes(in: [a, b, c], hitAlong: Point(901, 3), to: Point(901, 3), radius: 2) == [c.id])
    }

    @Test func agreesWithBruteForceOnGeneratedSketch() {
        let strokes = SketchGenerator(seed: 21).strokes(count: 120, pointsPerStroke: 30)
        var rng = SplitMix64(seed: 4)
        let polys = strokes.map { $0.flattened(tolerance: 0.05) }
        var hits = 0
        for _ in 0..<300 {
            let p = Point(rng.nextDouble(in: 0...1600), rng.nextDouble(in: 0...1000))
            let r = 8.0
            // Brute force: distance to each densely flattened polyline, topmost first.
            var expected: UUID?
            var ambiguous = false
            for (s, poly) in zip(strokes, polys).reversed() {
                let d = distance(from: p, toPolyline: poly) - s.width / 2 - r
                if abs(d) < 0.6 { ambiguous = true; break }  // within flattening slack
                if d < 0 { expected = s.id; break }
            }
            if ambiguous { continue }
            let got = StrokeHitTest.topmostStroke(in: strokes, at: p, radius: r)
            #expect(got == expected)
            if got != nil { hits += 1 }
        }
        #expect(hits > 10)
    }
}
