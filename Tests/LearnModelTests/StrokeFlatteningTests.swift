import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct StrokeFlatteningTests {
    @Test func straightSegmentsStaySingleLines() {
        let pts = [Point(0, 0), Point(100, 0), Point(100, 50), Point(20, 80)]
        #expect(polylineStroke(pts).flattened() == pts)
    }

    @Test func dotIsItsStart() {
        let dot = Stroke(author: "a", color: .white, width: 4, start: Point(3, 4), segments: [],
                         startedAt: sketchDate(0), endedAt: sketchDate(0))
        #expect(dot.flattened() == [Point(3, 4)])
    }

    @Test(arguments: [1.0, 0.25, 0.05])
    func cubicsStayWithinTolerance(tolerance: Double) {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<50 {
            let stroke = buildStroke(randomPath(&rng, count: 20))
            let poly = stroke.flattened(tolerance: tolerance)
            #expect(poly.first == stroke.start)
            #expect(poly.last == stroke.segments.last?.end)
            var p0 = stroke.start
            for s in stroke.segments {
                for k in 0...64 {
                    let q = s.point(from: p0, at: Double(k) / 64)
                    #expect(distance(from: q, toPolyline: poly) <= tolerance + 1e-9)
                }
                p0 = s.end
            }
        }
    }

    @Test func segmentEndsAreKeptExactly() {
        let stroke = buildStroke((0..<30).map { Point(Double($0) * 9, 200 + 40 * sin(Double($0) / 3)) })
        let poly = stroke.flattened()
        for s in stroke.segments { #expect(poly.contains(s.end)) }
    }

    @Test func stepsAreBoundedForAbsurdControls() {
        let wild = CubicSegment(c1: Point(1e12, -1e12), c2: Point(.nan, 0), end: Point(1, 1))
        let n = StrokeFlattening.steps(for: wild, from: Point(0, 0), tolerance: 0.25)
        #expect((1...256).contains(n))
        let huge = CubicSegment(c1: Point(1e9, 0), c2: Point(-1e9, 0), end: Point(1, 1))
        #expect(StrokeFlattening.steps(for: huge, from: Point(0, 0), tolerance: 0.25) == 256)
    }
}
