import LearnModel
import LearnRender

/// The pixel half of the engine's effects, carried out the same way by the
/// window's canvas, the class wall's headless bench and the engine's tests.
extension CanvasEngine {
    /// Strokes a tile drawn afresh shows: the document's, then the ink in
    /// progress on top.
    public var inkedStrokes: [Stroke] {
        let live = liveStrokes
        return live.isEmpty ? document.strokes : document.strokes + live
    }

    /// Draws, drops or inks tiles for a pixel effect; false for effects that
    /// are about something else (storing, the session, timers, repaints).
    @discardableResult
    public func carryOut(_ effect: CanvasEffect, on tiles: InkTileCache) -> Bool {
        switch effect {
        case let .render(keys, within):
            tiles.render(keys, within: within, meta: document.meta, strokes: inkedStrokes)
        case .drop(let keys):
            tiles.drop(keys)
        case let .ink(run, keys):
            tiles.draw(run, into: keys)
        case let .redraw(region, keys):
            tiles.redraw(region, in: keys, meta: document.meta, strokes: inkedStrokes)
        case .store, .session, .scheduleSettle, .scheduleIdle, .invalidate:
            return false
        }
        return true
    }
}
