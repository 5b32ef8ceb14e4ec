import LearnModel
import LearnRender

/// What the canvas engine asks of the world after an event, in order. The
/// view carries them out: pixels (tiles), persistence (`store`), the LAN
/// session (`session`), timers and repaints.
public enum CanvasEffect: Hashable, Sendable {
    /// Draw these tiles from the document (and the ink still in progress);
    /// with `within`, only their part inside that canvas rectangle (what is
    /// seen; the rest follows when the app is idle).
    case render([TileKey], within: Rect?)
    /// Forget these tiles' pixels.
    case drop([TileKey])
    /// Add this ink on top of these tiles.
    case ink(InkRun, tiles: [TileKey])
    /// Draw this canvas region of these tiles again from the document (after an erase).
    case redraw(Rect, tiles: [TileKey])
    /// The op entered the document: keep it.
    case store(SketchOp)
    /// Tell the LAN session.
    case session(SessionIntent)
    /// Send `.settle(generation:)` once input has rested for `CanvasEngine.settleDelayMS`.
    case scheduleSettle(generation: Int)
    /// Send `.idle` when the app has nothing else to do.
    case scheduleIdle
    /// Paint a new frame.
    case invalidate
}
