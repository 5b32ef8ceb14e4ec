import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnAnalysis

@Suite struct ContributionStatsTests {
    let meta = SketchMeta(name: "Stats", createdAt: sketchDate(0))

    func line(_ author: String, _ a: Point, _ b: Point, from: Double, to: Double) -> Stroke {
        Stroke(author: author, color: PenColor.black.rgba, width: 4, start: a, segments: [.line(from: a, to: b)],
               startedAt: sketchDate(from), endedAt: sketchDate(to))
    }

    func stats(_ ops: [SketchOp]) -> ContributionStats {
        ContributionStats(document: SketchDocument(meta: meta, ops: ops))
    }

    @Test func aStraightLineIsAsLongAsItIs() {
        let s = line("Anna", Point(0, 0), Point(100, 0), from: 0, to: 1)
        #expect(abs(ContributionStats.inkLength(of: s) - 100) < 0.5)
        // A curve is measured along the curve, not the chord: a half circle
        // of radius 50 is about 157 long, its chord 100.
        let k = 0.5523 * 50
        let arc = Stroke(author: "Anna", color: PenColor.black.rgba, width: 4, start: Point(0, 0), segments: [
            CubicSegment(c1: Point(0, k), c2: Point(50 - k, 50), end: Point(50, 50)),
            CubicSegment(c1: Point(50 + k, 50), c2: Point(100, k), end: Point(100, 0)),
        ], startedAt: sketchDate(0), endedAt: sketchDate(1))
        #expect(abs(ContributionStats.inkLength(of: arc) - 50 * .pi) < 1)
        let dot = Stroke(author: "Anna", color: PenColor.black.rgba, width: 6, start: Point(5, 5), segments: [],
                         startedAt: sketchDate(0), endedAt: sketchDate(0))
        #expect(ContributionStats.inkLength(of: dot) == 0)
    }

    @Test func countsAndInkIncludeErasedStrokes() {
        let a1 = line("Anna", Point(0, 0), Point(100, 0), from: 0, to: 1)
        let a2 = line("Anna", Point(0, 50), Point(0, 150), from: 2, to: 3)
        let b = line("Ben", Point(0, 300), Point(300, 300), from: 1, to: 2)
        let s = stats([.addStroke(a1), .addStroke(b), .addStroke(a2),
                       .eraseStroke(id: a1.id, by: "Ben", at: sketchDate(4)),
                       .eraseStroke(id: a2.id, by: "Anna", at: sketchDate(5)),
                       .clear(by: "Teacher", at: sketchDate(6))])
        #expect(s.authors.map(\.author) == ["Anna", "Ben"])
        let anna = s.contribution(of: "Anna")!, ben = s.contribution(of: "Ben")!
        #expect(anna.strokes == 2)
        #expect(abs(anna.inkLength - 200) < 0.5)
        #expect(abs(ben.inkLength - 300) < 0.5)
        // Anna erasing her own stroke is correcting, not erasing someone else.
        #expect(anna.erasedByOthers == 1 && anna.erasedOthers == 0)
        #expect(ben.erasedByOthers == 0 && ben.erasedOthers == 1)
        #expect(abs(s.share(of: "Anna") - 0.4) < 0.01)
        #expect(abs(s.share(of: "Ben") - 0.6) < 0.01)
        #expect(s.share(of: "Nobody") == 0)
        // A clear does not make the host a contributor.
        #expect(s.contribution(of: "Teacher") == nil)
    }

    @Test func authorsAreSortedByStrokesThenName() {
        func ink(_ who: String, _ t: Double) -> SketchOp {
            .addStroke(line(who, Point(0, t), Point(10, t), from: t, to: t + 0.5))
        }
        let s = stats([ink("Cem", 1), ink("Ben", 2), ink("Cem", 3), ink("Anna", 4), ink("Dora", 5), ink("Dora", 6)])
        #expect(s.authors.map(\.author) == ["Cem", "Dora", "Anna", "Ben"])
    }

    @Test func anEraserWhoNeverDrewIsListed() {
        let a = line("Anna", Point(0, 0), Point(100, 0), from: 0, to: 1)
        let s = stats([.addStroke(a), .eraseStroke(id: a.id, by: "Eve", at: sketchDate(2))])
        #expect(s.contribution(of: "Eve") == AuthorContribution(author: "Eve", erasedOthers: 1))
        #expect(s.authors.last?.author == "Eve")
    }

    @Test func shareIsZeroWithoutInk() {
        let dot = Stroke(author: "Anna", color: PenColor.black.rgba, width: 6, start: Point(5, 5), segments: [],
                         startedAt: sketchDate(0), endedAt: sketchDate(0))
        #expect(stats([.addStroke(dot)]).share(of: "Anna") == 0)
        #expect(stats([]).authors.isEmpty)
    }

    @Test func activeTimeMergesOverlapsAndShortPauses() {
        let p = Point(0, 0), q = Point(10, 0)
        // 0–2, then 3–4 (pause 1 s: bridged), 3.5–6 overlaps, then a pause of
        // exactly 5 s (not bridged) to 11–12, then 4.9 s to 16.9–17.
        // Stretches: 0–6 and 11–17 → 12 s.
        let s = stats([
            .addStroke(line("Anna", p, q, from: 0, to: 2)),
            .addStroke(line("Anna", p, q, from: 3, to: 4)),
            .addStroke(line("Anna", p, q, from: 3.5, to: 6)),
            .addStroke(line("Anna", p, q, from: 11, to: 12)),
            .addStroke(line("Anna", p, q, from: 16.9, to: 17)),
            // Someone else's strokes do not bridge Anna's pauses.
            .addStroke(line("Ben", p, q, from: 6, to: 11)),
        ])
        #expect(abs(s.contribution(of: "Anna")!.activeSeconds - 12) < 1e-6)
        #expect(abs(s.contribution(of: "Ben")!.activeSeconds - 5) < 1e-6)
    }

    @Test func activeTimeDoesNotDependOnLogOrder() {
        // A stroke that started long before and ended after a short one
        // (a slow device's late stroke) swallows it.
        let spans = [(start: sketchDate(10), end: sketchDate(11)), (start: sketchDate(0), end: sketchDate(20)),
                     (start: sketchDate(40), end: sketchDate(41))]
        #expect(abs(ContributionStats.activeSeconds(of: spans) - 21) < 1e-6)
        #expect(ContributionStats.activeSeconds(of: []) == 0)
    }
}
