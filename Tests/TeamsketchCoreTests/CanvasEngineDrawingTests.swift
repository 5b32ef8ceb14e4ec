import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import Testing

/// One pupil alone: the event sequences of Tests/ui/test_sketch.py.
@Suite struct CanvasEngineDrawingTests {
    @Test func aRedCurveLandsWhereThePenWentAndIsStoredOnce() {
        var rig = CanvasRig()
        rig.engine.pen = Pen(color: .red, width: .fine)
        let path = curve(across: rig)
        let effects = rig.drag(path)

        #expect(effects.stored.count == 1)
        guard case .addStroke(let stroke) = effects.stored.first else { return }
        #expect(rig.engine.document.strokes.map(\.id) == [stroke.id])
        #expect(stroke.color == PenColor.red.rgba && stroke.width == PenWidth.fine.units)
        #expect(effects.intents.isEmpty, "no session, no intents")
        // Ink along the whole path, its very end included (the stroke's tail) …
        for p in path {
            let inked = rig.hasInk(near: p, .red)
            #expect(inked, "no red ink near \(p)")
        }
        // … and none far from it.
        let far = [Point(path[0].x, path[0].y - 150), Point(path[20].x, path[20].y + 120), Point(40, 40)]
        for p in far {
            let inked = rig.hasInk(near: p, .red, radius: 20)
            #expect(!inked, "red ink near \(p)")
        }
    }

    @Test func eachNewSegmentDamagesOnlyTheTilesUnderIt() {
        var rig = CanvasRig()
        let path = curve(across: rig)
        rig.send(.press(path[0], eraserTip: false))
        var runs = 0
        for p in path.dropFirst() {
            for case let .ink(run, keys) in rig.send(.motion([p])) {
                runs += 1
                #expect(!keys.isEmpty)
                #expect(keys.count < rig.tiles.count / 2, "a segment touches a few tiles, not the sheet")
                for k in keys { #expect(k.canvasRect.intersects(run.bounds)) }
            }
        }
        #expect(runs > 5)
    }

    @Test func theLiveTailFollowsThePenBeforeItIsFitted() {
        var rig = CanvasRig()
        rig.send(.press(Point(300, 300), eraserTip: false))
        rig.send(.motion([Point(310, 302)]))
        let tail = rig.engine.liveTail
        #expect(tail != nil && tail?.isDot == false)
        let end = tail.flatMap { $0.segments.last?.end } ?? tail?.start
        let canvasEnd = rig.engine.viewport.toCanvas(Point(310, 302))
        #expect(end.map { $0.distance(to: canvasEnd) < 0.01 } == true)
        rig.send(.release(Point(310, 302)))
        #expect(rig.engine.liveTail == nil)
    }

    @Test func aTapDrawsADot() {
        var rig = CanvasRig()
        rig.send(.press(Point(500, 300), eraserTip: false))
        #expect(rig.engine.liveTail?.isDot == true)
        let effects = rig.send(.release(Point(500, 300)))
        #expect(effects.inkRuns.contains { $0.isDot })
        #expect(rig.isInk(Point(500, 300), .black))
    }

    @Test func broadInkIsThickerThanFine() {
        var rig = CanvasRig()
        rig.engine.pen = Pen(color: .darkBlue, width: .fine)
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 200) })
        rig.engine.pen.width = .broad
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 400) })
        let fine = rig.thickness(atX: 600, from: 180, to: 220, .darkBlue)
        let broad = rig.thickness(atX: 600, from: 380, to: 420, .darkBlue)
        #expect(fine >= 1 && fine < broad, "fine \(fine) px, broad \(broad) px")
    }

    @Test func theEraserRemovesTheWholeStrokeItTouchesAndRedrawsOnlyItsBounds() {
        var rig = CanvasRig()
        rig.engine.pen = Pen(color: .darkBlue, width: .fine)
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 200) })
        rig.engine.pen.width = .broad
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 400) })
        let broad = rig.engine.document.strokes[1]

        rig.engine.tool = .eraser
        let effects = rig.drag((0...20).map { Point(600, 370 + Double($0) * 3) })
        #expect(effects.stored.count == 1)
        if case .eraseStroke(let id, _, _) = effects.stored.first { #expect(id == broad.id) } else { Issue.record("no erase op") }
        #expect(rig.engine.document.strokes.count == 1)
        // Only the erased stroke's surroundings are drawn again.
        #expect(!effects.redrawn.isEmpty)
        for r in effects.redrawn {
            #expect(r.height < 60 && r.y > broad.bounds.y - 10, "redrew \(r)")
        }
        #expect(rig.thickness(atX: 300, from: 380, to: 420, .darkBlue) == 0)
        #expect(rig.thickness(atX: 600, from: 180, to: 220, .darkBlue) >= 1)
        // The ring shows while erasing, not after.
        rig.send(.press(Point(100, 100), eraserTip: false))
        #expect(rig.engine.eraserRing != nil)
        rig.send(.release(Point(100, 100)))
        #expect(rig.engine.eraserRing == nil)
    }

    @Test func aStylusEraserTipErasesWhateverToolIsChosen() {
        var rig = CanvasRig()
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 300) })
        let effects = rig.drag((0...10).map { Point(500, 280 + Double($0) * 4) }, eraserTip: true)
        #expect(effects.stored.count == 1)
        #expect(rig.engine.document.strokes.isEmpty)
        #expect(rig.engine.tool == .pen)
    }

    @Test func withoutTheEraserAllowedNoInputErases() {
        var settings = ClassroomSettings.defaults
        settings.eraserAllowed = false
        var rig = CanvasRig(permissions: .solo(settings))
        #expect(!rig.engine.mayErase)
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, 300) })
        let across = (0...10).map { Point(500, 280 + Double($0) * 4) }
        // A stylus turned round: its eraser end must not get round the setting.
        let tip = rig.drag(across, eraserTip: true)
        #expect(tip.stored.isEmpty)
        #expect(rig.engine.eraserRing == nil)
        // Nor may the tool be switched to the eraser (button, E key).
        rig.engine.tool = .eraser
        #expect(rig.engine.tool == .pen)
        rig.drag(across)
        #expect(rig.engine.document.strokes.count == 2, "the original stroke stays; the drag drew with the pen")
    }

    @Test func aWatcherDrawsNothingWhateverTheToolkitSends() {
        var rig = CanvasRig(permissions: .shared(isHost: false, role: .observer, session: nil))
        #expect(!rig.engine.drawingEnabled)
        let effects = rig.drag(curve(across: rig))
        #expect(effects.stored.isEmpty && rig.engine.liveStrokes.isEmpty)
        // The end of a time limit turning drawing "back on" does not make a watcher a painter.
        rig.send(.drawingEnabled(true))
        #expect(!rig.engine.drawingEnabled)
    }

    @Test func whenTimeIsUpTheStrokeInProgressGoesAndNothingMoreIsDrawn() {
        var rig = CanvasRig()
        rig.engine.pen = Pen(color: .red, width: .broad)
        rig.send(.press(Point(300, 300), eraserTip: false))
        for x in stride(from: 310.0, through: 600, by: 10) { rig.send(.motion([Point(x, 300)])) }
        #expect(rig.isInk(Point(400, 300), .red))

        let stop = rig.send(.drawingEnabled(false))
        #expect(stop.stored.isEmpty)
        #expect(!stop.redrawn.isEmpty, "the cancelled stroke's ink is removed")
        #expect(!rig.isInk(Point(400, 300), .red))

        let after = rig.drag(curve(across: rig))
        #expect(after.stored.isEmpty && after.inkRuns.isEmpty)
        #expect(rig.engine.document.strokes.isEmpty)
        let anyRed = curve(across: rig).contains { rig.hasInk(near: $0, .red) }
        #expect(!anyRed)
    }
}

@Suite struct CanvasEngineEraseRuleTests {
    func line(_ rig: inout CanvasRig, y: Double) {
        rig.drag(stride(from: 200.0, through: 1000, by: 20).map { Point($0, y) })
    }

    @Test func undoTakesBackOwnStrokesNewestFirstEvenWithTheEraserOff() {
        var rig = CanvasRig(permissions: .solo(ClassroomSettings(eraserAllowed: false, undoAllowed: true)))
        line(&rig, y: 200)
        line(&rig, y: 400)
        let second = rig.engine.document.strokes[1]
        let undo = rig.send(.undoOwnStroke)
        if case .eraseStroke(let id, let by, _) = undo.stored.first { #expect(id == second.id && by == "Mia") } else {
            Issue.record("no erase op")
        }
        #expect(rig.thickness(atX: 600, from: 380, to: 420, .black) == 0, "the ink is gone from the tiles")
        #expect(undo.contains(.invalidate), "and the widget is painted again: no pointer moved to do it")
        rig.send(.undoOwnStroke)
        #expect(rig.engine.document.strokes.isEmpty)
        #expect(rig.send(.undoOwnStroke).stored.isEmpty, "nothing left to take back")
    }

    /// A slip of the eraser is what a child most wants back: undo brings
    /// back what one rub took (all of it, as it was) and leaves the lines
    /// drawn since; the next undo goes on with what came before.
    @Test func undoAfterAnEraseBringsTheErasedLinesBack() {
        var rig = CanvasRig(permissions: .solo(ClassroomSettings(undoAllowed: true)))
        line(&rig, y: 200)
        line(&rig, y: 300)
        line(&rig, y: 500)
        let drawn = rig.engine.document.strokes
        let (top, middle, bottom) = (drawn[0], drawn[1], drawn[2])
        rig.engine.tool = .eraser
        // One rub across the top two lines.
        rig.drag((0...40).map { Point(600, 180 + Double($0) * 3) })
        #expect(rig.engine.document.strokes.map(\.id) == [bottom.id])
        rig.engine.tool = .pen
        let undo = rig.send(.undoOwnStroke)
        #expect(undo.stored.count == 2 && undo.contains(.invalidate))
        let back = rig.engine.document.strokes
        #expect(back.count == 3 && back[0].id == bottom.id, "the bottom line stays")
        #expect(Set(back.dropFirst().map(\.segments)) == [top.segments, middle.segments])
        #expect(Set(back.dropFirst().map(\.id)).isDisjoint(with: [top.id, middle.id]),
                "brought back as new lines: an id once erased stays erased on every device")
        #expect(rig.thickness(atX: 600, from: 180, to: 220, .black) > 0, "the ink is on the tiles again")
        #expect(rig.thickness(atX: 600, from: 280, to: 320, .black) > 0)
        // Then the line drawn last before the rub.
        rig.send(.undoOwnStroke)
        #expect(rig.engine.document.strokes.count == 2 && !rig.engine.document.strokes.contains { $0.id == bottom.id })
    }

    /// When drawing has stopped (time is up) undo changes nothing and
    /// keeps its step for later; undo in the middle of a rub closes it.
    @Test func undoWaitsWhileDrawingIsStopped() {
        var rig = CanvasRig(permissions: .solo(ClassroomSettings(undoAllowed: true)))
        line(&rig, y: 200)
        line(&rig, y: 500)
        rig.engine.tool = .eraser
        rig.drag((0...20).map { Point(600, 180 + Double($0) * 2) })
        #expect(rig.engine.document.strokes.count == 1)
        rig.send(.drawingEnabled(false))
        #expect(rig.send(.undoOwnStroke).stored.isEmpty)
        #expect(rig.engine.document.strokes.count == 1)
        rig.send(.drawingEnabled(true))
        #expect(rig.send(.undoOwnStroke).stored.count == 1, "the rub is still the step to undo")
        #expect(rig.engine.document.strokes.count == 2)
    }

    /// In a session the lines come back the way a pupil draws them: through
    /// the host, drawn by this pupil.
    @Test func sharedUndoOfAnEraseDrawsTheLineAgainThroughTheHost() {
        let mine = Stroke(author: "Mia", color: PenColor.black.rgba, width: 4, start: Point(200, 300),
                          segments: lines([Point(200, 300), Point(600, 300), Point(1000, 300)]), startedAt: Date(), endedAt: Date())
        var rig = CanvasRig(document: SketchDocument(meta: SketchMeta(name: "T"), ops: [.addStroke(mine)]), shared: true,
                            permissions: .shared(isHost: false, role: .drawer, session: SessionSettings(undoOwnAllowed: true)))
        rig.engine.tool = .eraser
        let rub = rig.drag((0...25).map { Point(500, 150 + Double($0) * 4) })
        #expect(rub.contains(.session(.erase(mine.id))))
        rig.send(.sharedOpApplied(.eraseStroke(id: mine.id, by: "Mia", at: Date()), isOwn: true))
        #expect(rig.engine.document.strokes.isEmpty)
        let undo = rig.send(.undoOwnStroke)
        let begun = undo.compactMap { e -> UUID? in
            if case .session(.beginStroke(let id, _, _, let start)) = e, start == mine.start { return id } else { return nil }
        }
        #expect(begun.count == 1 && begun.first != mine.id)
        #expect(undo.contains(.session(.addSegments(mine.segments, to: begun[0]))))
        #expect(undo.contains(.session(.endStroke(begun[0]))))
    }

    @Test func undoLeavesOtherPupilsStrokesAndIsOffWhenNotAllowed() {
        let theirs = Stroke(author: "Ole", color: PenColor.black.rgba, width: 4, start: Point(50, 50), segments: [],
                            startedAt: Date(), endedAt: Date())
        var rig = CanvasRig(document: SketchDocument(meta: SketchMeta(name: "T"), ops: [.addStroke(theirs)]))
        #expect(rig.send(.undoOwnStroke).stored.isEmpty, "only the other pupil's stroke is there")
        var off = CanvasRig(permissions: .solo(ClassroomSettings(undoAllowed: false)))
        line(&off, y: 300)
        #expect(off.send(.undoOwnStroke).stored.isEmpty)
        #expect(off.engine.document.strokes.count == 1)
    }

    @Test func theEraserLimitedToOwnLinesPassesOverOthers() {
        let theirs = Stroke(author: "Ole", color: PenColor.black.rgba, width: 6, start: Point(200, 300),
                            segments: lines([Point(200, 300), Point(600, 300), Point(1000, 300)]), startedAt: Date(), endedAt: Date())
        var rig = CanvasRig(document: SketchDocument(meta: SketchMeta(name: "T"), ops: [.addStroke(theirs)]),
                            permissions: .solo(ClassroomSettings(eraserOwnStrokesOnly: true)))
        line(&rig, y: 310)
        rig.engine.tool = .eraser
        let effects = rig.drag((0...10).map { Point(500, 280 + Double($0) * 4) })
        #expect(effects.stored.count == 1)
        #expect(rig.engine.document.strokes.map(\.author) == ["Ole"])
    }

    @Test func sharedUndoGoesThroughTheHost() {
        let mine = Stroke(author: "Mia", color: PenColor.black.rgba, width: 4, start: Point(50, 50), segments: [],
                          startedAt: Date(), endedAt: Date())
        var rig = CanvasRig(document: SketchDocument(meta: SketchMeta(name: "T"), ops: [.addStroke(mine)]), shared: true,
                            permissions: .shared(isHost: false, role: .drawer, session: SessionSettings(undoOwnAllowed: true)))
        let effects = rig.send(.undoOwnStroke)
        #expect(effects.contains(.session(.erase(mine.id))))
        #expect(rig.engine.document.strokes.count == 1, "the ink goes when the host's op comes back")
    }
}
