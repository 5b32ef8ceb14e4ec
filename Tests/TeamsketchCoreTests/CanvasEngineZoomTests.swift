import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import Testing

/// Zoom, minimap and which tiles exist: the cache holds what is seen.
@Suite struct CanvasEngineZoomTests {
    /// A sheet with a broad dark blue line across its middle.
    static func rigWithLine(deviceScale: Double = 1) -> CanvasRig {
        var rig = CanvasRig(deviceScale: deviceScale)
        rig.engine.pen = Pen(color: .darkBlue, width: .broad)
        rig.drag(stride(from: 150.0, through: 1050, by: 20).map { Point($0, 400) })
        return rig
    }

    @Test func theFirstFrameDrawsTheVisibleTilesOnly() {
        let rig = CanvasRig()
        let f = rig.engine.tileFrame
        #expect(rig.engine.tiles.scale == f.wantedScale)
        #expect(rig.tiles.keys == Set(rig.engine.tiles.visible(f)))
        #expect(!rig.tiles.keys.isEmpty)
    }

    @Test func ctrlWheelZoomsAroundThePointerAndSettlesCrisp() {
        var rig = Self.rigWithLine()
        let before = rig.thickness(atX: 600, from: 380, to: 420, .darkBlue)
        let pointer = Point(600, 400)
        let under = rig.engine.viewport.toCanvas(pointer)
        rig.send(.hover(pointer))
        for _ in 0..<5 { rig.send(.wheel(dx: 0, dy: -1, control: true)) }
        #expect(rig.engine.viewport.zoom > 2)
        // The canvas point under the pointer stays under it.
        #expect(rig.engine.viewport.toWidget(under).distance(to: pointer) < 0.001)

        // Before the zoom rests the old tiles are shown stretched.
        let oldScale = rig.engine.tiles.scale
        #expect(rig.frame().rendered.isEmpty)
        #expect(rig.engine.tilesToPaint.allSatisfy { $0.scale == oldScale })
        let stretched = rig.thickness(atX: 600, from: 300, to: 500, .darkBlue)
        #expect(stretched > before * 2)

        // Resting: the tiles the viewport shows are drawn again at the new
        // scale, and nothing else yet.
        let settled = rig.settle()
        let f = rig.engine.tileFrame
        #expect(rig.engine.tiles.scale == f.wantedScale)
        let visible = Set(rig.engine.tiles.visible(f))
        #expect(Set(settled.rendered) == visible)
        #expect(settled.dropped.allSatisfy { $0.scale == oldScale })
        #expect(rig.engine.tilesToPaint.allSatisfy { $0.scale == f.wantedScale })
        let crisp = rig.thickness(atX: 600, from: 300, to: 500, .darkBlue)
        #expect(abs(Double(crisp) - PenWidth.broad.units * rig.engine.viewport.scale) <= 2)

        // The margin and the overview follow when the app is idle, a few tiles a turn.
        #expect(rig.idleAsked)
        rig.idleUntilDone()
        let renders = rig.log.compactMap { if case .render(let k, _) = $0 { k.count } else { nil } }
        #expect(renders.suffix(2).allSatisfy { $0 <= TilePlanner.idleBatch })
        #expect(rig.engine.tiles.backlog(f).isEmpty)
        #expect(rig.engine.tiles.overview(f).count == TileKey.covering(
            Rect(x: 0, y: 0, width: 1600, height: 1000), scale: f.fitScale, canvasWidth: 1600, canvasHeight: 1000).count)
    }

    @Test func inkIsCrispAtEveryZoomWithNoSizeCap() {
        // A HiDPI kiosk at maximum zoom: 8 device pixels per fitted unit.
        var rig = Self.rigWithLine(deviceScale: 2)
        rig.send(.zoom(4, anchor: Point(600, 400)))
        rig.settle()
        let f = rig.engine.tileFrame
        #expect(rig.engine.tiles.scale == rig.engine.viewport.fitScale * 4 * 2)
        // What is kept stays near the viewport's size, whatever the zoom.
        let pixels = rig.tiles.count * TileKey.size * TileKey.size
        let shown = Int(1200 * 660 * 4.0)
        #expect(pixels < shown * 2 + 2 * 1600 * 1000 * Int(f.fitScale * f.fitScale))
    }

    @Test func aStaleSettleIsIgnored() {
        var rig = CanvasRig()
        rig.send(.zoom(2, anchor: nil))
        let first = rig.pendingSettle!
        rig.send(.zoom(3, anchor: nil))
        #expect(rig.send(.settle(generation: first)).rendered.isEmpty)
        #expect(!rig.settle().rendered.isEmpty)
    }

    @Test func aPinchDoesNotSettleUntilTheFingersLift() {
        var rig = CanvasRig()
        rig.send(.pinchBegan(center: Point(600, 300)))
        rig.send(.pinchChanged(scale: 2, center: Point(600, 300)))
        #expect(rig.engine.viewport.zoom == 2)
        #expect(rig.settle().rendered.isEmpty)
        rig.send(.pinchEnded)
        #expect(!rig.settle().rendered.isEmpty)
    }

    @Test func theMinimapFramesTheViewportAndATapRecentres() {
        var rig = Self.rigWithLine()
        #expect(rig.engine.minimap == nil)
        rig.send(.zoom(3, anchor: Point(200, 150)))
        rig.settle()
        guard let m = rig.engine.minimap else { Issue.record("no minimap while zoomed"); return }
        let v = rig.engine.viewport.visibleCanvasRect
        #expect(abs(m.frame.width - v.width * m.scale) < 1e-9)
        #expect(m.rect.maxX <= 1200 && m.rect.maxY <= 660)
        // A tap on the minimap's centre re-centres the canvas and draws no ink.
        let tap = Point(m.rect.x + m.rect.width / 2, m.rect.y + m.rect.height / 2)
        let effects = rig.drag([tap])
        #expect(effects.stored.isEmpty && effects.inkRuns.isEmpty)
        let c = rig.engine.viewport.visibleCanvasRect
        #expect(abs(c.x + c.width / 2 - 800) < 1 && abs(c.y + c.height / 2 - 500) < 1)
        // The jump shows new tiles, drawn before the frame is painted.
        let f = rig.frame()
        #expect(!f.rendered.isEmpty)
        #expect(Set(rig.engine.tiles.visible(rig.engine.tileFrame)).isSubset(of: rig.tiles.keys))
        // Back to zoom 1: no minimap, the zoomed tiles go.
        rig.send(.zoom(1, anchor: nil))
        rig.settle()
        #expect(rig.engine.minimap == nil)
        #expect(rig.tiles.keys.allSatisfy { $0.scale == rig.engine.tileFrame.fitScale })
    }

    @Test func panningDrawsOnlyNewlyVisibleTilesAndForgetsFarOnes() {
        var rig = CanvasRig()
        rig.send(.zoom(4, anchor: Point(0, 0)))
        rig.settle()
        rig.idleUntilDone()
        let before = rig.tiles.keys
        for _ in 0..<30 { rig.send(.wheel(dx: 1, dy: 1, control: false)) }
        let effects = rig.frame()
        let visible = Set(rig.engine.tiles.visible(rig.engine.tileFrame))
        #expect(visible.isSubset(of: rig.tiles.keys))
        #expect(Set(effects.rendered).isDisjoint(with: before), "kept tiles are not drawn again")
        #expect(!effects.dropped.isEmpty, "tiles far behind are forgotten")
    }

    @Test func aSettleDrawsOnlyWhatIsSeenAndAPanFinishesEdgeTilesFirst() {
        var rig = CanvasRig()
        rig.send(.zoom(3, anchor: Point(600, 330)))
        let settled = rig.settle()
        let seen = rig.engine.viewport.visibleCanvasRect
        let parts = settled.compactMap { e -> Rect? in if case .render(_, let within) = e { within } else { nil } }
        #expect(parts == [seen], "the settle draws the visible part only")
        // Before any idle turn, a pan shows more of the edge tiles: they are
        // finished before the frame, so no undrawn (black) pixel is shown.
        for _ in 0..<3 { rig.send(.wheel(dx: 1, dy: 1, control: false)) }
        let f = rig.frame()
        #expect(f.contains { if case .render(_, nil) = $0 { true } else { false } })
        for x in stride(from: 0.0, to: 1200, by: 37) {
            for y in stride(from: 0.0, to: 660, by: 37) {
                let px = rig.pixel(atWidget: Point(x, y))
                #expect(px.map { $0.r > 0 || $0.g > 0 || $0.b > 0 } == true, "undrawn pixel at \(x), \(y)")
            }
        }
    }

    @Test func aResizeWhileZoomedRedrawsTheOverviewAtTheNewFit() {
        var rig = CanvasRig()
        rig.send(.zoom(2, anchor: nil))
        rig.settle()
        rig.idleUntilDone()
        rig.send(.resize(width: 900, height: 600, deviceScale: 1))
        rig.settle()
        rig.idleUntilDone()
        let f = rig.engine.tileFrame
        #expect(rig.tiles.keys.allSatisfy { $0.scale == f.wantedScale || $0.scale == f.fitScale })
        #expect(!rig.engine.tiles.overview(f).isEmpty)
    }
}

@Suite struct TileKeyTests {
    @Test func coveringStaysOnTheCanvas() {
        let keys = TileKey.covering(Rect(x: -100, y: -100, width: 5000, height: 5000), scale: 1,
                                    canvasWidth: 1600, canvasHeight: 1000)
        #expect(keys.count == 7 * 4)
        #expect(keys.allSatisfy { $0.column >= 0 && $0.row >= 0 && $0.pixelX < 1600 && $0.pixelY < 1000 })
    }

    @Test func aRectInsideOneTileGivesThatTile() {
        let keys = TileKey.covering(Rect(x: 300, y: 300, width: 10, height: 10), scale: 2,
                                    canvasWidth: 1600, canvasHeight: 1000)
        #expect(keys == [TileKey(scale: 2, column: 2, row: 2)])
        #expect(keys[0].canvasRect == Rect(x: 256, y: 256, width: 128, height: 128))
    }
}
