import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct StrokeBuilderTests {
    func builder(_ start: Point = Point(100, 100), minDistance: Double = 0.3) -> StrokeBuilder {
        StrokeBuilder(author: "Anna", color: PenColor.red.rgba, width: 6, start: start, at: sketchDate(0),
                      minDistance: minDistance)
    }

    @Test func emitsFirstSegmentAtTheFifthSampleThenEveryThird() {
        let s = (0..<12).map { Point(100 + Double($0) * 10, 100 + Double($0 * $0)) }
        var b = builder(s[0])
        #expect(b.add(s[1]).isEmpty)
        #expect(b.add(s[2]).isEmpty)
        #expect(b.add(s[3]).isEmpty)
        let first = b.add(s[4])
        // Samples 1–4 with the 4th moved onto the midpoint of the 3rd and 5th.
        #expect(first == [CubicSegment(c1: s[1], c2: s[2], end: s[2].midpoint(s[4]))])
        #expect(b.pendingTail == [s[2].midpoint(s[4]), s[4]])
        #expect(b.add(s[5]).isEmpty)
        #expect(b.add(s[6]).isEmpty)
        let second = b.add(s[7])
        // Continues from 4'–5: the 5th sample is the next first control point.
        #expect(second == [CubicSegment(c1: s[4], c2: s[5], end: s[5].midpoint(s[7]))])
        #expect(b.segments == first + second)
        #expect(b.start == s[0])
    }

    @Test func jointsAreTangentContinuousForRandomPaths() {
        var rng = SplitMix64(seed: 11)
        var checked = 0
        // Worst values over all joints, so a regression reports once, not thousands of times.
        var worstSine = 0.0, worstCosine = 1.0, shortestTangent = Double.infinity
        for _ in 0..<300 {
            let samples = randomPath(&rng, count: 2 + rng.nextInt(below: 40))
            let stroke = buildStroke(samples)
            for (incoming, outgoing) in joints(of: stroke) {
                let a = length(incoming), b = length(outgoing)
                shortestTangent = min(shortestTangent, a, b)
                let cross = (incoming.x * outgoing.y - incoming.y * outgoing.x) / (a * b)
                let dot = (incoming.x * outgoing.x + incoming.y * outgoing.y) / (a * b)
                worstSine = max(worstSine, abs(cross))
                worstCosine = min(worstCosine, dot)
                checked += 1
            }
        }
        #expect(checked > 1000)
        // Only a sample exactly between its neighbours gives a zero tangent;
        // random doubles never do that.
        #expect(shortestTangent > 1e-9)
        #expect(worstSine < 1e-9, "a joint has a corner")
        #expect(worstCosine > 0.999_999, "a joint reverses direction")
    }

    @Test func curvePassesNearEverySample() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<100 {
            let samples = SketchGenerator.scribble(points: 3 + rng.nextInt(below: 60), width: 1600, height: 1000,
                                                   using: &rng)
            let stroke = buildStroke(samples)
            let poly = stroke.flattened(tolerance: 0.05)
            var maxStep = 0.0
            for i in samples.indices.dropFirst() { maxStep = max(maxStep, samples[i].distance(to: samples[i - 1])) }
            for p in samples {
                // Control points sit off the curve, but never by more than a step.
                #expect(distance(from: p, toPolyline: poly) <= maxStep)
            }
        }
    }

    @Test(arguments: 1...14)
    func tailIsKeptAndStrokeEndsAtLastSample(count: Int) throws {
        let samples = (0..<count).map { i in Point(200 + Double(i) * 7, 300 + 20 * sin(Double(i))) }
        var b = builder(samples[0])
        var streamed: [CubicSegment] = []
        for p in samples.dropFirst() { streamed += b.add(p) }
        let pending = b.pendingTail
        let (tail, stroke) = b.finish(at: sketchDate(2))
        #expect(stroke.segments == streamed + tail)
        if count == 1 {
            #expect(stroke.isDot)
            return
        }
        #expect(stroke.segments.last?.end == samples.last)
        #expect(tail.count == 1)
        let t = try #require(tail.first)
        switch pending.count {
        case 2: #expect(t == .line(from: pending[0], to: pending[1]))
        case 3:
            // Quadratic through control pending[1], raised to a cubic.
            let c1 = pending[0] + (pending[1] - pending[0]) * (2.0 / 3.0)
            let c2 = pending[2] + (pending[1] - pending[2]) * (2.0 / 3.0)
            #expect(t.c1.distance(to: c1) < 1e-12 && t.c2.distance(to: c2) < 1e-12 && t.end == pending[2])
        case 4: #expect(t == CubicSegment(c1: pending[1], c2: pending[2], end: pending[3]))
        default: Issue.record("pending tail of \(pending.count) points")
        }
        // Every pending count from 2 to 4 occurs across the arguments.
        #expect((2...4).contains(pending.count))
    }

    @Test func tailPreviewMatchesTheFinishedTail() {
        var rng = SplitMix64(seed: 3)
        for n in 1...12 {
            let samples = randomPath(&rng, count: n)
            var b = builder(samples[0])
            b.add(contentsOf: samples.dropFirst())
            let preview = b.tailPreview
            #expect(b.finish(at: sketchDate(1)).tail == preview)
        }
    }

    @Test func tapWithoutMovementIsADot() {
        var b = builder(Point(50, 60))
        // Jitter below the minimum distance is no movement.
        b.add(Point(50.1, 60))
        b.add(Point(50, 60.2))
        b.add(Point(50, 60))
        let (tail, stroke) = b.finish(at: sketchDate(0.1))
        #expect(tail.isEmpty)
        #expect(stroke.isDot && stroke.segments.isEmpty)
        #expect(stroke.start == Point(50, 60))
        // A dot's radius is the pen width.
        #expect(stroke.bounds == Rect(x: 44, y: 54, width: 12, height: 12))
        #expect(stroke.endedAt == sketchDate(0.1))
    }

    @Test func minDistanceDropsJitter() {
        var b = builder(Point(0, 0))
        for i in 1...15 { b.add(Point(Double(i) * 0.07, 0)) }  // creeping in 0.07 steps
        // Only samples at least 0.3 from the last kept one survive: 0.35, 0.7, 1.05.
        #expect(b.pendingTail.count == 4)
        for (i, p) in b.pendingTail.enumerated() { #expect(abs(p.x - Double(i) * 0.35) < 1e-9) }

        var coarse = builder(Point(0, 0), minDistance: 5)
        coarse.add(contentsOf: [Point(4, 0), Point(4.9, 0), Point(5, 0), Point(9, 0), Point(10, 0)])
        #expect(coarse.pendingTail == [Point(0, 0), Point(5, 0), Point(10, 0)])
    }

    @Test func ignoresNonFiniteSamplesAndSamplesAfterFinish() {
        var b = builder(Point(0, 0))
        b.add(Point(.nan, 3))
        b.add(Point(4, .infinity))
        #expect(b.pendingTail == [Point(0, 0)])
        b.add(Point(10, 0))
        let (_, stroke) = b.finish(at: sketchDate(1))
        #expect(b.isFinished)
        #expect(b.add(Point(20, 0)).isEmpty)
        let again = b.finish(at: sketchDate(2))
        #expect(again.tail.isEmpty)
        #expect(again.stroke.segments == stroke.segments)
    }

    @Test func finishedStrokeCarriesTheBuildersIdentity() {
        let id = UUID()
        var b = StrokeBuilder(id: id, author: "Ben", pen: Pen(color: .darkBlue, width: .broad), start: Point(1, 2),
                              at: sketchDate(5))
        b.add(Point(30, 2))
        let s = b.finish(at: sketchDate(3)).stroke
        #expect(s.id == id && s.author == "Ben")
        #expect(s.color == PenColor.darkBlue.rgba && s.width == PenWidth.broad.units)
        #expect(s.startedAt == sketchDate(5))
        // A clock that stepped back must not give a stroke that ends before it starts.
        #expect(s.endedAt == sketchDate(5))
    }
}
