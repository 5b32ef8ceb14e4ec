import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import Testing

/// Drawing together: the sequences of Tests/ui/test_together.py and the
/// session's events (segments arriving in batches, host-ordered ops, snapshots).
@Suite struct CanvasEngineSessionTests {
    @Test func ownStrokesStreamAsIntentsAndEnterTheDocumentWhenTheHostOrdersThem() {
        var rig = CanvasRig(shared: true)
        rig.engine.pen = Pen(color: .red, width: .fine)
        let effects = rig.drag(curve(across: rig))
        let intents = effects.intents
        guard case let .beginStroke(id, color, width, _) = intents.first else {
            Issue.record("no beginStroke"); return
        }
        #expect(color == PenColor.red.rgba && width == PenWidth.fine.units)
        #expect(intents.last == .endStroke(id))
        let sent = intents.flatMap { i -> [CubicSegment] in if case .addSegments(let s, id) = i { s } else { [] } }
        #expect(!sent.isEmpty)
        // Not in the document, not stored, until the host has ordered it.
        #expect(effects.stored.isEmpty && rig.engine.document.strokes.isEmpty)
        #expect(rig.isInk(curve(across: rig)[20], .red))
        // Waiting for the host, the stroke still shows on tiles drawn afresh.
        #expect(rig.engine.liveStrokes.map(\.id) == [id])

        let stroke = Stroke(id: id, author: "Mia", color: color, width: width, start: rig.engine.viewport.toCanvas(curve(across: rig)[0]),
                            segments: sent, startedAt: Date(), endedAt: Date())
        let applied = rig.send(.sharedOpApplied(.addStroke(stroke), isOwn: true))
        #expect(applied.stored == [.addStroke(stroke)])
        #expect(applied.inkRuns.isEmpty, "own ink is already on the tiles")
        #expect(rig.engine.liveStrokes.isEmpty)
        #expect(rig.engine.document.strokes.map(\.id) == [id])
    }

    @Test func aStrokeTheHostRefusedLeavesTheSheet() {
        var rig = CanvasRig(shared: true)
        rig.engine.pen = Pen(color: .red, width: .fine)
        let path = curve(across: rig)
        let effects = rig.drag(path)
        guard case let .beginStroke(id, _, _, _) = effects.intents.first else {
            Issue.record("no beginStroke"); return
        }
        #expect(rig.isInk(path[20], .red))
        rig.send(.ownStrokeRefused(id))
        #expect(rig.engine.liveStrokes.isEmpty)
        #expect(rig.engine.document.strokes.isEmpty)
        #expect(!rig.isInk(path[20], .red))
    }

    @Test func aRefusalWhileThePenIsStillDownEndsThatStroke() {
        var rig = CanvasRig(shared: true)
        rig.engine.pen = Pen(color: .red, width: .fine)
        let path = curve(across: rig)
        var effects = rig.send(.press(path[0], eraserTip: false))
        for p in path[1...30] { effects += rig.send(.motion([p])) }
        guard case let .beginStroke(id, _, _, _) = effects.intents.first else {
            Issue.record("no beginStroke"); return
        }
        let drawn = path[1...20]
        #expect(drawn.contains { rig.isInk($0, .red) })
        rig.send(.ownStrokeRefused(id))
        #expect(!drawn.contains { rig.isInk($0, .red) })
        // The rest of the drag draws and sends nothing.
        var after: [CanvasEffect] = []
        for p in path[31...] { after += rig.send(.motion([p])) }
        after += rig.send(.release(path[path.count - 1]))
        #expect(after.intents.isEmpty)
        #expect(!rig.isInk(path[path.count - 5], .red))
        #expect(rig.engine.liveStrokes.isEmpty)
    }

    @Test func anOwnStrokeTheHostKeptOnlyPartOfShowsOnlyThatPart() {
        var rig = CanvasRig(shared: true)
        rig.engine.pen = Pen(color: .red, width: .fine)
        let path = curve(across: rig)
        let effects = rig.drag(path)
        guard case let .beginStroke(id, color, width, start) = effects.intents.first else {
            Issue.record("no beginStroke"); return
        }
        let sent = effects.intents.flatMap { i -> [CubicSegment] in if case .addSegments(let s, id) = i { s } else { [] } }
        #expect(sent.count > 4)
        let tail = path[(path.count - 8)...]
        #expect(tail.contains { rig.isInk($0, .red) })
        // The host refused the pieces after the first two.
        let kept = Stroke(id: id, author: "Mia", color: color, width: width, start: start,
                          segments: Array(sent.prefix(2)), startedAt: Date(), endedAt: Date())
        rig.send(.sharedOpApplied(.addStroke(kept), isOwn: true))
        #expect(!tail.contains { rig.isInk($0, .red) })
        #expect(rig.engine.document.strokes == [kept])
    }

    @Test func remoteStrokesArriveSegmentBySegmentAndRepeatsAreNotDrawnTwice() {
        var rig = CanvasRig(shared: true)
        let id = UUID()
        let pts = stride(from: 200.0, through: 1400, by: 100).map { Point($0, 500) }
        let segs = lines(pts)
        rig.send(.remoteBegan(liveStroke(id: id, start: pts[0], segments: Array(segs[0..<2]))))
        var drawn = 2
        // Batches overlap (a resend) and arrive in pieces.
        for (first, count) in [(1, 3), (4, 2), (3, 4)] {
            let batch = Array(segs[first..<first + count])
            let effects = rig.send(.remoteExtended(id, firstIndex: first, segments: batch))
            let fresh = effects.inkRuns.flatMap(\.segments)
            #expect(fresh == Array(segs[drawn..<first + count]))
            drawn = first + count
        }
        let p = rig.engine.viewport.toWidget(Point(650, 500))
        #expect(rig.isInk(p, .red))
        #expect(rig.engine.liveStrokes.count == 1 && rig.engine.document.strokes.isEmpty)

        // The host orders it: only the segments not yet seen are drawn.
        let stroke = Stroke(id: id, author: "Ben", color: PenColor.red.rgba, width: PenWidth.broad.units,
                            start: pts[0], segments: segs, startedAt: Date(), endedAt: Date())
        let applied = rig.send(.sharedOpApplied(.addStroke(stroke), isOwn: false))
        #expect(applied.stored == [.addStroke(stroke)])
        #expect(applied.inkRuns.flatMap(\.segments) == Array(segs[drawn...]))
        #expect(rig.isInk(rig.engine.viewport.toWidget(Point(1350, 500)), .red))
        #expect(rig.engine.liveStrokes.isEmpty)
    }

    @Test func aGapWhileRejoiningIsBridgedFromTheLastInk() {
        var rig = CanvasRig(shared: true)
        let id = UUID()
        let pts = (0...6).map { Point(300 + Double($0) * 100, 300) }
        let segs = lines(pts)
        rig.send(.remoteBegan(liveStroke(id: id, start: pts[0], segments: [segs[0]])))
        let effects = rig.send(.remoteExtended(id, firstIndex: 3, segments: Array(segs[3...])))
        let run = effects.inkRuns.first
        #expect(run?.start == pts[1], "continues from the last ink drawn")
        #expect(run?.segments == Array(segs[3...]))
    }

    @Test func erasingInASessionAsksTheHostAndTheInkGoesWhenTheOpComesBack() {
        // Ben's line, in a class whose eraser takes anyone's.
        var rig = CanvasRig(shared: true, permissions: .solo(ClassroomSettings(eraserOwnStrokesOnly: false)))
        let stroke = Stroke(author: "Ben", color: PenColor.darkBlue.rgba, width: PenWidth.broad.units,
                            start: Point(200, 500), segments: lines([Point(200, 500), Point(1400, 500)]),
                            startedAt: Date(), endedAt: Date())
        rig.send(.sharedOpApplied(.addStroke(stroke), isOwn: false))
        let across = rig.engine.viewport.toWidget(Point(800, 500))
        #expect(rig.isInk(across, .darkBlue))

        rig.engine.tool = .eraser
        let asked = rig.drag([Point(across.x, across.y - 20), Point(across.x, across.y + 20)])
        #expect(asked.intents.contains(.erase(stroke.id)))
        #expect(asked.stored.isEmpty && rig.engine.document.strokes.count == 1)
        #expect(rig.isInk(across, .darkBlue), "still shown until the host orders the erase")

        let op = SketchOp.eraseStroke(id: stroke.id, by: "Mia", at: Date())
        let applied = rig.send(.sharedOpApplied(op, isOwn: true))
        #expect(applied.stored == [op])
        #expect(applied.redrawn.count == 1)
        #expect(!rig.isInk(across, .darkBlue))
    }

    @Test func aPinchFinishesASharedStrokeInsteadOfDroppingIt() {
        var rig = CanvasRig(shared: true)
        rig.send(.press(Point(300, 300), eraserTip: false))
        for x in stride(from: 310.0, through: 500, by: 10) { rig.send(.motion([Point(x, 300)])) }
        let effects = rig.send(.pinchBegan(center: Point(400, 300)))
        #expect(effects.intents.contains { if case .endStroke = $0 { true } else { false } })
        #expect(effects.redrawn.isEmpty)
    }

    @Test func aSnapshotReplacesTheDocumentAndKeepsLiveInk() {
        var rig = CanvasRig(shared: true)
        rig.drag(curve(across: rig))
        var doc = SketchDocument(meta: rig.engine.document.meta)
        let kept = Stroke(author: "Ben", color: PenColor.darkGreen.rgba, width: PenWidth.broad.units,
                          start: Point(200, 200), segments: lines([Point(200, 200), Point(600, 200)]),
                          startedAt: Date(), endedAt: Date())
        _ = doc.apply(.addStroke(kept))
        let live = liveStroke(color: .red, start: Point(200, 800), segments: lines([Point(200, 800), Point(900, 800)]))

        let effects = rig.send(.reset(doc, live: [live]))
        #expect(Set(effects.dropped) == Set(rig.log.rendered), "every tile is forgotten")
        #expect(rig.engine.document == doc)
        rig.frame()
        #expect(rig.isInk(rig.engine.viewport.toWidget(Point(400, 200)), .darkGreen))
        #expect(rig.isInk(rig.engine.viewport.toWidget(Point(500, 800)), .red), "live ink is drawn with the tiles")
        #expect(!rig.isInk(curve(across: rig)[20], .black))
        // The live stroke continues from where the snapshot left it.
        let more = rig.send(.remoteExtended(live.id, firstIndex: 1, segments: lines([Point(900, 800), Point(1200, 800)])))
        #expect(more.inkRuns.first?.start == Point(900, 800))
    }

    @Test func clearingForEveryoneEmptiesTheSheet() {
        var rig = CanvasRig(shared: true)
        let stroke = Stroke(author: "Ben", color: PenColor.red.rgba, width: 18, start: Point(200, 500),
                            segments: lines([Point(200, 500), Point(1400, 500)]), startedAt: Date(), endedAt: Date())
        rig.send(.sharedOpApplied(.addStroke(stroke), isOwn: false))
        let effects = rig.send(.sharedOpApplied(.clear(by: "Teacher", at: Date()), isOwn: false))
        #expect(effects.stored.count == 1)
        rig.frame()
        #expect(!rig.isInk(rig.engine.viewport.toWidget(Point(800, 500)), .red))
    }

    /// A peer's stroke with Xournal++ styles (here a fill) is no plain run of
    /// ink: the tiles draw it from the document, fill and all.
    @Test func aStyledStrokeFromAPeerIsDrawnWithItsStyle() {
        var rig = CanvasRig(shared: true)
        var stroke = Stroke(author: "Ben", color: PenColor.red.rgba, width: 4, start: Point(200, 200),
                            segments: lines([Point(200, 200), Point(600, 200), Point(400, 500), Point(200, 200)]),
                            startedAt: Date(), endedAt: Date())
        stroke.fill = 1
        let applied = rig.send(.sharedOpApplied(.addStroke(stroke), isOwn: false))
        #expect(applied.stored == [.addStroke(stroke)])
        #expect(applied.inkRuns.isEmpty)
        rig.frame()
        #expect(rig.isInk(rig.engine.viewport.toWidget(Point(400, 300)), .red), "inside the filled shape")
    }
}
