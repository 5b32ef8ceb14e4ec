import Foundation
import Testing
@testable import LearnModel

@Suite struct SketchGeneratorTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        // First outputs of the reference C implementation for seed 0.
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func sameSeedSameDocument() {
        let a = SketchGenerator(seed: 42).document(strokes: 50, pointsPerStroke: 20)
        let b = SketchGenerator(seed: 42).document(strokes: 50, pointsPerStroke: 20)
        let c = SketchGenerator(seed: 43).document(strokes: 50, pointsPerStroke: 20)
        #expect(a == b)
        #expect(a.strokes.map(\.id) != c.strokes.map(\.id))
        #expect(SketchGenerator(seed: 42).strokes(count: 50, pointsPerStroke: 20) == a.strokes)
    }

    @Test func polylineStrokesHoldExactlyTheRequestedPoints() {
        let doc = SketchGenerator(seed: 1).document(strokes: 200, pointsPerStroke: 60, shape: .polyline)
        #expect(doc.strokes.count == 200)
        #expect(doc.strokes.allSatisfy { $0.segments.count == 59 })
        for s in doc.strokes {
            var p = s.start
            for seg in s.segments {
                #expect(seg.isLine(from: p))
                p = seg.end
            }
        }
    }

    @Test func plausibleFeltPenScribbles() {
        let doc = SketchGenerator(seed: 3).document(strokes: 400, pointsPerStroke: 60)
        #expect(Set(doc.strokes.map(\.color)) == Set(PenColor.allCases.map(\.rgba)))
        #expect(Set(doc.strokes.map(\.width)) == Set(PenWidth.allCases.map(\.units)))
        #expect(Set(doc.strokes.map(\.id)).count == 400)
        let canvas = Rect(x: 0, y: 0, width: 1600, height: 1000)
        for s in doc.strokes {
            // Smoothed: about one cubic per three samples.
            #expect((18...20).contains(s.segments.count))
            let b = s.bounds
            #expect(b.x >= canvas.x && b.y >= canvas.y && b.maxX <= canvas.maxX && b.maxY <= canvas.maxY)
            #expect(s.endedAt > s.startedAt)
        }
        // Later strokes end later, so replay by date walks through the sketch.
        #expect(zip(doc.strokes, doc.strokes.dropFirst()).allSatisfy { $0.endedAt < $1.startedAt })
    }

    @Test func tinyRequestsStillWork() {
        let dots = SketchGenerator(seed: 2).document(strokes: 3, pointsPerStroke: 1)
        #expect(dots.strokes.count == 3 && dots.strokes.allSatisfy { $0.isDot })
        #expect(SketchGenerator(seed: 2).document(strokes: 0, pointsPerStroke: 10).strokes.isEmpty)
        let polyDots = SketchGenerator(seed: 2).document(strokes: 2, pointsPerStroke: 1, shape: .polyline)
        #expect(polyDots.strokes.allSatisfy { $0.isDot })
    }

    @Test func uuidSourceGivesValidDistinctVersion4Ids() {
        var source = UUIDSource()
        let ids = (0..<1000).map { _ in source.next() }
        #expect(Set(ids).count == 1000)
        for id in ids.prefix(20) {
            let s = id.uuidString
            #expect(Array(s)[14] == "4")
            #expect("89AB".contains(Array(s)[19]))
        }
        var a = UUIDSource(seed: 5), b = UUIDSource(seed: 5)
        #expect(a.next() == b.next())
    }
}
