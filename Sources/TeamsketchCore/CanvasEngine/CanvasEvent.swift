import Foundation
import LearnModel

/// What reaches the canvas engine: input in widget coordinates (already
/// translated from the toolkit's events), the session's changes, and the
/// timers the engine asked for.
public enum CanvasEvent: Hashable, Sendable {
    /// The widget's size in widget units, and device pixels per widget unit.
    case resize(width: Double, height: Double, deviceScale: Double)
    /// Primary button, a finger or a stylus touched down; `eraserTip` is a stylus's eraser end.
    case press(Point, eraserTip: Bool)
    /// Pointer samples since the last event, oldest first (motion history included).
    case motion([Point])
    case release(Point)
    /// The stroke is called off: a second finger (pinch) or the toolkit cancelled the touch.
    case cancel
    /// Take back this pupil's latest stroke still on the sheet (when undo is allowed).
    case undoOwnStroke
    /// The pointer is here, for events that do not draw (wheel, keys).
    case hover(Point)
    /// Zoom to `zoom`, keeping the canvas point under `anchor` (default: the widget's centre).
    case zoom(Double, anchor: Point?)
    case pinchBegan(center: Point?)
    case pinchChanged(scale: Double, center: Point?)
    case pinchEnded
    /// Wheel or touchpad scroll; with Control it zooms around the pointer.
    case wheel(dx: Double, dy: Double, control: Bool)
    /// The settle timer asked for by `.scheduleSettle`.
    case settle(generation: Int)
    /// A frame is about to be painted.
    case frame
    /// The idle turn asked for by `.scheduleIdle`.
    case idle
    /// Time is up (false) or drawing allowed again.
    case drawingEnabled(Bool)
    // LAN session
    case remoteBegan(LiveStroke)
    case remoteExtended(UUID, firstIndex: Int, segments: [CubicSegment])
    /// The host put an op in the shared order.
    case sharedOpApplied(SketchOp, isOwn: Bool)
    /// A snapshot replaced the document (late join, rejoin).
    case reset(SketchDocument, live: [LiveStroke])
    /// The host refused this device's stroke (the sketch is full …): its
    /// ink leaves the sheet, whether the pen is still down or it waits.
    case ownStrokeRefused(UUID)
}
