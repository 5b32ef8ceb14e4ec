import Foundation
import LearnModel
import LearnRender

/// One thing this pupil did on the sheet, as undo takes it back.
enum UndoStep: Hashable, Sendable {
    /// Drew this stroke: undo erases it, if it is still there.
    case drew(UUID)
    /// One rub of the eraser took these strokes (as they were): undo draws
    /// them again.
    case erased([Stroke])
}

/// Undo takes back this pupil's own last step, again and again: a line
/// drawn goes, and a rub of the eraser is undone by drawing what it took
/// back (a child's slip with the eraser is what they most want back).
/// Only this pupil's steps, never a classmate's; when none is left (a
/// sketch opened again) it takes back their latest line still on the sheet.
extension CanvasEngine {
    /// More than a child undoes in a row; the oldest are forgotten.
    static let undoDepth = 100

    mutating func remember(_ step: UndoStep) {
        undoSteps.append(step)
        if undoSteps.count > Self.undoDepth { undoSteps.removeFirst(undoSteps.count - Self.undoDepth) }
    }

    /// What one press of the eraser takes goes into one step, each stroke
    /// once (in a session a stroke stays under the eraser until the host's
    /// erasure comes back).
    mutating func rememberErased(_ strokes: [Stroke]) {
        guard !strokes.isEmpty else { return }
        if erasingStep, case .erased(let earlier)? = undoSteps.last {
            let new = strokes.filter { s in !earlier.contains { $0.id == s.id } }
            undoSteps[undoSteps.count - 1] = .erased(earlier + new)
        } else {
            remember(.erased(strokes))
            erasingStep = true
        }
    }

    /// True when something was taken back.
    mutating func undo() -> Bool {
        // Drawing stopped (time is up): nothing may change the sheet, and
        // no step is used up.
        guard permissions.mayUndo, builder == nil, drawingEnabled else { return false }
        // A rub after this undo is a step of its own.
        erasingStep = false
        while let step = undoSteps.popLast() {
            switch step {
            case .drew(let id):
                // Gone already (erased by someone, cleared): the step
                // before is the one to take back.
                guard isOnSheet(id) else { continue }
                take([id])
            case .erased(let strokes):
                let missing = strokes.filter { !isOnSheet($0.id) }
                if missing.isEmpty, isShared, !strokes.isEmpty {
                    // The host has not ordered the rub's erasure yet: the
                    // step stays, to be undone once it has.
                    undoSteps.append(step)
                    return false
                }
                guard !missing.isEmpty else { continue }
                for stroke in missing { drawAgain(stroke) }
            }
            // Nothing else repaints the widget: no pointer moved.
            emit(.invalidate)
            return true
        }
        guard let stroke = EraseRule.lastOwnStroke(of: author, in: document) else { return false }
        take([stroke.id])
        emit(.invalidate)
        return true
    }

    private func isOnSheet(_ id: UUID) -> Bool {
        awaitingHost[id] != nil || document.strokes.contains { $0.id == id }
    }

    /// An erased stroke comes back as a new one with the same ink: its id
    /// stays erased on every device and on the school server, where the
    /// erasure may have gone already. In a session it goes through the
    /// host as this pupil's drawing (the host decides whose ink it is), as
    /// a plain line: the session's frames carry no Xournal++ styles
    /// (pressure, fill, dashes), so an imported line comes back plain.
    private mutating func drawAgain(_ erased: Stroke) {
        var stroke = erased
        stroke.id = UUID()
        if isShared {
            stroke.author = author
            emit(.session(.beginStroke(id: stroke.id, color: stroke.color, width: stroke.width, start: stroke.start)))
            if !stroke.segments.isEmpty { emit(.session(.addSegments(stroke.segments, to: stroke.id))) }
            emit(.session(.endStroke(stroke.id)))
            awaitingHost[stroke.id] = stroke
            ink(InkRun(color: stroke.color, width: stroke.width, start: stroke.start, segments: stroke.segments,
                       isDot: stroke.isDot))
        } else {
            let op = SketchOp.addStroke(stroke)
            guard document.apply(op) else { return }
            emit(.store(op))
            redraw(stroke.bounds.insetBy(-stroke.width))
        }
        minimapGeneration += 1
    }
}
