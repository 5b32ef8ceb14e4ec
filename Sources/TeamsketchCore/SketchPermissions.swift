import Foundation
import LearnModel

/// What the pupil at this device may do on a sketch: the tools the canvas
/// offers follow from it.
public struct SketchPermissions: Equatable, Sendable {
    public var mayDraw: Bool
    /// Clear the sheet for everyone.
    public var mayClear: Bool
    /// The eraser and undo, as the class allows them.
    public var erase: EraseRule

    public var mayErase: Bool { erase.eraserAllowed }
    public var mayUndo: Bool { erase.undoAllowed }

    public init(mayDraw: Bool, mayClear: Bool, erase: EraseRule) {
        self.mayDraw = mayDraw
        self.mayClear = mayClear
        self.erase = erase
    }

    /// Someone who only watches.
    public static let watching = SketchPermissions(
        mayDraw: false, mayClear: false, erase: EraseRule(eraserAllowed: false, undoAllowed: false))

    /// Alone: draw, erase and undo as the settings say; no clearing (there
    /// is nobody to clear it for, and one tap would lose the whole sketch).
    public static func solo(_ settings: ClassroomSettings) -> SketchPermissions {
        SketchPermissions(mayDraw: true, mayClear: false, erase: settings.sessionSettings.eraseRule)
    }

    /// In a LAN session the host's settings decide for everyone. Observers
    /// only watch; only the host may clear, and only when it was allowed.
    public static func shared(isHost: Bool, role: PeerRole, session: SessionSettings?) -> SketchPermissions {
        let settings = session ?? SessionSettings()
        guard role != .observer else { return .watching }
        return SketchPermissions(mayDraw: true, mayClear: isHost && settings.clearAllowed, erase: settings.eraseRule)
    }
}
