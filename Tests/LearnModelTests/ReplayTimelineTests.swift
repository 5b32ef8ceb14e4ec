import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct ReplayTimelineTests {
    let meta = SketchMeta(name: "Replay", createdAt: sketchDate(0))

    /// A straight stroke drawn from `from` seconds to `to` seconds.
    func stroke(_ author: String, from: Double, to: Double, y: Double = 100) -> Stroke {
        Stroke(author: author, color: PenColor.black.rgba, width: 4, start: Point(0, y),
               segments: [.line(from: Point(0, y), to: Point(100, y))],
               startedAt: sketchDate(from), endedAt: sketchDate(to))
    }

    @Test func aFrameShowsExactlyTheStrokesFinishedByItsTime() {
        let a = stroke("Anna", from: 8, to: 10)
        let b = stroke("Ben", from: 9, to: 10.001)
        let timeline = ReplayTimeline(document: SketchDocument(meta: meta, ops: [.addStroke(a), .addStroke(b)]))
        #expect(timeline.frame(at: sketchDate(9.999)).strokes.isEmpty)
        #expect(timeline.frame(at: sketchDate(10)).strokes == [a])
        #expect(timeline.frame(at: sketchDate(10)).stepIndex == 1)
        #expect(timeline.frame(at: sketchDate(10.001)).strokes == [a, b])
        #expect(timeline.frame(at: sketchDate(10.001)).time == sketchDate(10.001))
        // Before anything and long after.
        #expect(timeline.frame(at: sketchDate(-100)).stepIndex == 0)
        #expect(timeline.frame(at: sketchDate(1_000)).strokes == [a, b])
    }

    @Test func anErasedStrokeDisappearsAtTheEraseAndIsBackEarlier() {
        let a = stroke("Anna", from: 1, to: 2), b = stroke("Ben", from: 3, to: 4, y: 200)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(a), .addStroke(b),
                                                   .eraseStroke(id: a.id, by: "Ben", at: sketchDate(20))])
        let timeline = ReplayTimeline(document: doc)
        #expect(timeline.frame(at: sketchDate(20)).strokes == [b])
        #expect(timeline.frame(at: sketchDate(19.999)).strokes == [a, b])
        // Scrubbing back after looking at a later frame gives the same answer.
        _ = timeline.frame(at: sketchDate(30))
        #expect(timeline.frame(at: sketchDate(5)).strokes == [a, b])
    }

    @Test func aClearEmptiesTheCanvasFromItsTimeOn() {
        let a = stroke("Anna", from: 1, to: 2), b = stroke("Ben", from: 2, to: 3, y: 200)
        let c = stroke("Cem", from: 6, to: 7, y: 300)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(a), .addStroke(b),
                                                   .clear(by: "Teacher", at: sketchDate(5)), .addStroke(c)])
        let timeline = ReplayTimeline(document: doc)
        #expect(timeline.frame(at: sketchDate(4.9)).strokes == [a, b])
        #expect(timeline.frame(at: sketchDate(5)).strokes.isEmpty)
        #expect(timeline.frame(at: sketchDate(6.9)).strokes.isEmpty)
        #expect(timeline.frame(at: sketchDate(7)).strokes == [c])
    }

    @Test func theAuthorFilterShowsOnlyChosenPupils() {
        let a1 = stroke("Anna", from: 1, to: 2), b = stroke("Ben", from: 2, to: 3, y: 200)
        let a2 = stroke("Anna", from: 3, to: 4, y: 300), c = stroke("Cem", from: 4, to: 5, y: 400)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(a1), .addStroke(b), .addStroke(a2), .addStroke(c),
                                                   .eraseStroke(id: a1.id, by: "Cem", at: sketchDate(6))])
        let timeline = ReplayTimeline(document: doc)
        #expect(timeline.frame(at: sketchDate(5), authors: ["Anna"]).strokes == [a1, a2])
        #expect(timeline.frame(at: sketchDate(5), authors: ["Anna", "Cem"]).strokes == [a1, a2, c])
        // Someone else's erase still removes the chosen pupil's ink.
        #expect(timeline.frame(at: sketchDate(6), authors: ["Anna"]).strokes == [a2])
        #expect(timeline.frame(at: sketchDate(6), authors: []).strokes.isEmpty)
        #expect(timeline.frame(afterSteps: 2, authors: ["Ben"]).strokes == [b])
        #expect(timeline.frame(at: sketchDate(6), authors: nil).strokes == [b, a2, c])
    }

    @Test func stepsWalkTheLogOneOpAtATime() {
        let a = stroke("Anna", from: 1, to: 2), b = stroke("Ben", from: 2.5, to: 3, y: 200)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(a), .addStroke(b),
                                                   .eraseStroke(id: b.id, by: "Anna", at: sketchDate(4)),
                                                   .clear(by: "Teacher", at: sketchDate(9))])
        let timeline = ReplayTimeline(document: doc)
        #expect(timeline.stepCount == 4)
        #expect(timeline.start == sketchDate(1))
        #expect(timeline.end == sketchDate(9))
        #expect(abs(timeline.duration - 8) < 1e-6)
        #expect(timeline.frame(afterSteps: 0).strokes.isEmpty)
        #expect(timeline.frame(afterSteps: 1).strokes == [a])
        #expect(timeline.frame(afterSteps: 2).strokes == [a, b])
        #expect(timeline.frame(afterSteps: 3).strokes == [a])
        #expect(timeline.frame(afterSteps: 4).strokes.isEmpty)
        #expect(timeline.frame(afterSteps: 3).stepIndex == 3)
        #expect(timeline.frame(afterSteps: 3).time == sketchDate(4))
        #expect(timeline.time(ofStep: 0) == sketchDate(1))
        #expect(timeline.time(ofStep: 2) == sketchDate(3))
        // Out-of-range steps are clamped, not trapped.
        #expect(timeline.frame(afterSteps: 99).stepIndex == 4)
        #expect(timeline.frame(afterSteps: -3).stepIndex == 0)
        // The step found for a time is the step that reaches that time.
        for n in 0...timeline.stepCount {
            #expect(timeline.step(at: timeline.time(ofStep: n)) == n)
        }
    }

    @Test func anEmptySketchHasOneEmptyFrame() {
        let timeline = ReplayTimeline(document: SketchDocument(meta: meta))
        #expect(timeline.stepCount == 0)
        #expect(timeline.duration == 0)
        #expect(timeline.frame(at: sketchDate(5)) == ReplayFrame(strokes: [], stepIndex: 0, time: sketchDate(5)))
        #expect(timeline.frame(afterSteps: 1).stepIndex == 0)
    }

    /// Clocks of several devices drift, so a log's dates may go backwards; the
    /// timeline must then still agree with the document's own replay.
    @Test func outOfOrderDatesAgreeWithTheDocumentsReplay() {
        var rng = SplitMix64(seed: 7)
        var doc = SketchDocument(meta: meta)
        var drawn: [Stroke] = []
        let authors = ["Anna", "Ben", "Cem"]
        for i in 0..<300 {
            // Op times wander around i/2 seconds, up to 3 s out of order.
            let t = Double(i) / 2 + rng.nextDouble(in: -3...3)
            switch rng.nextInt(below: 10) {
            case 0..<6:
                let s = stroke(authors[rng.nextInt(below: 3)], from: t - 1, to: t, y: Double(i))
                drawn.append(s)
                doc.apply(.addStroke(s))
            case 6..<9 where !drawn.isEmpty:
                doc.apply(.eraseStroke(id: drawn[rng.nextInt(below: drawn.count)].id, by: "Ben", at: sketchDate(t)))
            default:
                if rng.nextInt(below: 4) == 0 { doc.apply(.clear(by: "Teacher", at: sketchDate(t))) }
            }
        }
        let timeline = ReplayTimeline(document: doc)
        var t = -5.0
        while t < 160 {
            #expect(timeline.frame(at: sketchDate(t)).strokes == doc.strokes(at: sketchDate(t)), "t = \(t)")
            t += 0.37
        }
        for n in stride(from: 0, through: timeline.stepCount, by: 7) {
            #expect(timeline.frame(afterSteps: n).strokes == doc.strokes(afterOps: n))
        }
        // The replay clock never runs backwards.
        for n in 1...timeline.stepCount { #expect(timeline.time(ofStep: n) >= timeline.time(ofStep: n - 1)) }
    }
}
