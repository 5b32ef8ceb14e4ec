import Foundation
import LearnModel

/// What the pupil at this device may do on a sketch: the tools the canvas
/// offers follow from it.
public struct SketchPermissions: Equatable, Sendable {
    public var mayDraw: Bool
    public var mayErase: Bool
    /// Clear the sheet for everyone.
    public var mayClear: Bool

    public init(mayDraw: Bool, mayErase: Bool, mayClear: Bool) {
        self.mayDraw = mayDraw
        self.mayErase = mayErase
        self.mayClear = mayClear
    }

    /// Alone: draw, erase as the settings say; no clearing (there is nobody
    /// to clear it for, and one tap would lose the whole sketch).
    public static func solo(_ settings: ClassroomSettings) -> SketchPermissions {
        SketchPermissions(mayDraw: true, mayErase: settings.eraserAllowed, mayClear: false)
    }

    /// In a LAN session the host's settings decide for everyone. Observers
    /// only watch; only the host may clear, and only when it was allowed.
    public static func shared(isHost: Bool, role: PeerRole, session: SessionSettings?) -> SketchPermissions {
        let settings = session ?? SessionSettings()
        guard role != .observer else { return SketchPermissions(mayDraw: false, mayErase: false, mayClear: false) }
        return SketchPermissions(mayDraw: true, mayErase: settings.eraserAllowed,
                                 mayClear: isHost && settings.clearAllowed)
    }
}
