import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct ConflictSignalsTests {
    let meta = SketchMeta(name: "Conflicts", createdAt: sketchDate(0))

    func line(_ author: String, _ points: [Point], width: Double = 4, at t: Double) -> Stroke {
        var segments: [CubicSegment] = []
        for i in points.indices.dropFirst() { segments.append(.line(from: points[i - 1], to: points[i])) }
        return Stroke(author: author, color: PenColor.black.rgba, width: width, start: points[0],
                      segments: segments, startedAt: sketchDate(t - 0.5), endedAt: sketchDate(t))
    }

    func signals(_ ops: [SketchOp]) -> ConflictSignals {
        ConflictSignals(document: SketchDocument(meta: meta, ops: ops))
    }

    @Test func erasingSomeoneElsesStrokeIsOneEventAtItsStep() {
        let b = line("Ben", [Point(0, 0), Point(100, 0)], at: 1)
        let a = line("Anna", [Point(0, 500), Point(100, 500)], at: 2)
        let s = signals([.addStroke(b), .addStroke(a), .eraseStroke(id: b.id, by: "Anna", at: sketchDate(3))])
        #expect(s.events == [ConflictEvent(kind: .erasedOther, actor: "Anna", victim: "Ben", strokeID: b.id,
                                           at: sketchDate(3), stepIndex: 2)])
        #expect(s.count(actor: "Anna", victim: "Ben") == 1)
        #expect(s.count(actor: "Ben", victim: "Anna") == 0)
    }

    @Test func erasingOnesOwnStrokeIsNoConflict() {
        let a = line("Anna", [Point(0, 0), Point(100, 0)], at: 1)
        let s = signals([.addStroke(a), .eraseStroke(id: a.id, by: "Anna", at: sketchDate(2))])
        #expect(s.events.isEmpty)
        #expect(s.counts.isEmpty)
    }

    @Test func drawingAcrossSomeoneElsesLineIsDrawingOver() {
        let b = line("Ben", [Point(0, 100), Point(200, 100)], at: 1)
        // A zigzag crossing Ben's line twice: still one event for the pair.
        let a = line("Anna", [Point(50, 0), Point(60, 200), Point(70, 0)], at: 2)
        let s = signals([.addStroke(b), .addStroke(a)])
        #expect(s.events == [ConflictEvent(kind: .drewOver, actor: "Anna", victim: "Ben", strokeID: a.id,
                                           otherStrokeID: b.id, at: sketchDate(2), stepIndex: 1)])
        #expect(s.count(actor: "Anna", victim: "Ben") == 1)
    }

    @Test func drawingFarAwayOrOverOnesOwnInkIsNot() {
        let b = line("Ben", [Point(0, 100), Point(200, 100)], at: 1)
        let far = line("Anna", [Point(800, 0), Point(800, 600)], at: 2)
        let own = line("Ben", [Point(50, 0), Point(50, 200)], at: 3)
        #expect(signals([.addStroke(b), .addStroke(far), .addStroke(own)]).events.isEmpty)
    }

    @Test func touchingCountsByTheSumOfHalfWidths() {
        // Ben's line is 10 wide, Anna's 6: ink meets when centre lines are
        // within 8 units, even with overlapping bounding boxes either way.
        let b = line("Ben", [Point(0, 100), Point(200, 100)], width: 10, at: 1)
        let near = line("Anna", [Point(0, 107.9), Point(200, 107.9)], width: 6, at: 2)
        let apart = line("Cem", [Point(0, 91.9), Point(200, 91.9)], width: 6, at: 2)
        #expect(signals([.addStroke(b), .addStroke(near)]).events.map(\.kind) == [.drewOver])
        #expect(signals([.addStroke(b), .addStroke(apart)]).events.isEmpty)
    }

    @Test func boundsOverlapAloneIsNotDrawingOver() {
        // A diagonal and a small stroke in the empty corner of its bounds.
        let b = line("Ben", [Point(0, 0), Point(400, 400)], at: 1)
        let a = line("Anna", [Point(300, 20), Point(380, 40)], at: 2)
        #expect(signals([.addStroke(b), .addStroke(a)]).events.isEmpty)
    }

    @Test func erasedOrClearedInkCannotBeDrawnOver() {
        let b = line("Ben", [Point(0, 100), Point(200, 100)], at: 1)
        let a = line("Anna", [Point(50, 0), Point(50, 200)], at: 3)
        #expect(signals([.addStroke(b), .eraseStroke(id: b.id, by: "Ben", at: sketchDate(2)), .addStroke(a)])
            .events.isEmpty)
        let s = signals([.addStroke(b), .clear(by: "Ben", at: sketchDate(2)), .addStroke(a)])
        #expect(s.events.isEmpty)
    }

    @Test func aClearReportsEachOtherAuthorOnce() {
        let b1 = line("Ben", [Point(0, 0), Point(10, 0)], at: 1)
        let c = line("Cem", [Point(0, 500), Point(10, 500)], at: 2)
        let b2 = line("Ben", [Point(0, 900), Point(10, 900)], at: 3)
        let h = line("Host", [Point(900, 900), Point(910, 900)], at: 4)
        let s = signals([.addStroke(b1), .addStroke(c), .addStroke(b2), .addStroke(h),
                         .clear(by: "Host", at: sketchDate(5))])
        #expect(s.events == [
            ConflictEvent(kind: .clearedOthers, actor: "Host", victim: "Ben", strokeID: b2.id, strokeCount: 2,
                          at: sketchDate(5), stepIndex: 4),
            ConflictEvent(kind: .clearedOthers, actor: "Host", victim: "Cem", strokeID: c.id, strokeCount: 1,
                          at: sketchDate(5), stepIndex: 4),
        ])
        #expect(s.count(actor: "Host", victim: "Ben") == 1)
        #expect(s.count(actor: "Host", victim: "Cem") == 1)
        #expect(s.count(actor: "Host", victim: "Host") == 0)
    }

    @Test func eventsComeInLogOrderAndJumpToTheirOp() {
        let b = line("Ben", [Point(0, 100), Point(200, 100)], at: 1)
        let a = line("Anna", [Point(100, 0), Point(100, 200)], at: 2)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(b), .addStroke(a),
                                                   .eraseStroke(id: a.id, by: "Ben", at: sketchDate(3)),
                                                   .clear(by: "Anna", at: sketchDate(4))])
        let s = ConflictSignals(document: doc)
        #expect(s.events.map(\.kind) == [.drewOver, .erasedOther, .clearedOthers])
        #expect(s.events.map(\.stepIndex) == [1, 2, 3])
        #expect(s.events(of: .erasedOther).map(\.victim) == ["Anna"])
        // The replay just after the erase no longer shows the erased stroke.
        let timeline = ReplayTimeline(document: doc)
        let erase = s.events[1]
        #expect(timeline.frame(afterSteps: erase.stepIndex).strokes.map(\.id).contains(erase.strokeID))
        #expect(!timeline.frame(afterSteps: erase.stepIndex + 1).strokes.map(\.id).contains(erase.strokeID))
    }

    @Test func dotsAndHugeStrokesAreFound() {
        let b = line("Ben", [Point(0, 100), Point(200, 100)], width: 4, at: 1)
        // A dot's ink is its radius (its width) around its centre.
        let dot = Stroke(author: "Anna", color: PenColor.black.rgba, width: 6, start: Point(100, 107.9),
                         segments: [], startedAt: sketchDate(2), endedAt: sketchDate(2))
        let missedDot = Stroke(author: "Cem", color: PenColor.black.rgba, width: 6, start: Point(150, 108.1),
                               segments: [], startedAt: sketchDate(2), endedAt: sketchDate(2))
        // Bounds too large for the grid still take part.
        let huge = line("Dora", [Point(-1e6, 100), Point(1e6, 100)], at: 3)
        let late = line("Eve", [Point(5e5, 0), Point(5e5, 200)], at: 4)
        let s = signals([.addStroke(b), .addStroke(dot), .addStroke(missedDot), .addStroke(huge), .addStroke(late)])
        let pairs = s.events.map { "\($0.actor)>\($0.victim)" }
        #expect(pairs == ["Anna>Ben", "Dora>Ben", "Dora>Anna", "Eve>Dora"])
    }

    /// The grid must find exactly what testing every visible pair would.
    @Test func theGridAgreesWithTestingEveryPair() {
        var rng = SplitMix64(seed: 42)
        let authors = ["Anna", "Ben", "Cem", "Dora"]
        var doc = SketchDocument(meta: meta)
        var drawn: [Stroke] = []
        for i in 0..<400 {
            let t = Double(i)
            if rng.nextInt(below: 10) == 0, !drawn.isEmpty {
                doc.apply(.eraseStroke(id: drawn[rng.nextInt(below: drawn.count)].id,
                                       by: authors[rng.nextInt(below: 4)], at: sketchDate(t)))
                continue
            }
            let path = randomPath(&rng, count: 2 + rng.nextInt(below: 12), maxTurn: 1.5)
            let s = buildStroke(path, width: rng.nextDouble(in: 1...16), author: authors[rng.nextInt(below: 4)], at: t)
            drawn.append(s)
            doc.apply(.addStroke(s))
        }

        var expected: [ConflictEvent] = []
        var visible: [Stroke] = []
        for (step, op) in doc.ops.enumerated() {
            switch op {
            case .addStroke(let s):
                let mine = s.flattened(tolerance: StrokeHitTest.tolerance)
                for other in visible where other.author != s.author && other.endedAt <= s.endedAt {
                    let reach = s.width / 2 + other.width / 2
                    if Self.minimumDistance(mine, other.flattened(tolerance: StrokeHitTest.tolerance)) <= reach {
                        expected.append(ConflictEvent(kind: .drewOver, actor: s.author, victim: other.author,
                                                      strokeID: s.id, otherStrokeID: other.id, at: s.endedAt,
                                                      stepIndex: step))
                    }
                }
                visible.append(s)
            case .eraseStroke(let id, let by, let at):
                let erased = visible.first { $0.id == id }!
                visible.removeAll { $0.id == id }
                if erased.author != by {
                    expected.append(ConflictEvent(kind: .erasedOther, actor: by, victim: erased.author,
                                                  strokeID: id, at: at, stepIndex: step))
                }
            case .clear:
                Issue.record("no clears generated")
            }
        }
        let found = ConflictSignals(document: doc).events
        #expect(expected.filter { $0.kind == .drewOver }.count > 20, "the sketch should have crossings")
        #expect(found == expected)
    }

    static func minimumDistance(_ a: [Point], _ b: [Point]) -> Double {
        var best = Double.infinity
        for i in a.indices.dropFirst() {
            for j in b.indices.dropFirst() {
                best = min(best, StrokeHitTest.segmentDistanceSquared(a[i - 1], a[i], b[j - 1], b[j]))
            }
        }
        return best.squareRoot()
    }
}
