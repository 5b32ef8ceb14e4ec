import Foundation
import LearnModel

/// The choices that shape a lesson, with what each means and its default.
/// Today the device keeps them (the sounds switch in the profile, the rest
/// chosen when a sketch is started); the teacher's admin window will own
/// them later, so the app reads them from here and nowhere else.
public struct ClassroomSettings: Equatable, Sendable {
    /// Buchstaben Post's sounds. On unless the class wants quiet; in a game
    /// on the LAN the host's choice applies to every device.
    public var soundsOn: Bool
    /// Whether the host of a shared sketch may clear the sheet for
    /// everyone. Off, because one tap would wipe every child's work; only
    /// ever the host's button.
    public var clearAllowed: Bool
    /// Whether pupils may erase strokes (whole strokes; erasing is kept in
    /// the replay). On.
    public var eraserAllowed: Bool
    /// A new sketch's time limit in minutes, 0 for none; always within
    /// `timeLimitRange`.
    public var timeLimitMinutes: Int {
        didSet { timeLimitMinutes = Self.clampedTimeLimit(timeLimitMinutes) }
    }

    /// A sketch may run for at most two hours (a double lesson).
    public static let timeLimitRange = SketchLimits.timeLimitMinutes
    public static let defaults = ClassroomSettings()

    public init(soundsOn: Bool = true, clearAllowed: Bool = false, eraserAllowed: Bool = true,
                timeLimitMinutes: Int = 0) {
        self.soundsOn = soundsOn
        self.clearAllowed = clearAllowed
        self.eraserAllowed = eraserAllowed
        self.timeLimitMinutes = Self.clampedTimeLimit(timeLimitMinutes)
    }

    public static func clampedTimeLimit(_ minutes: Int) -> Int {
        min(max(minutes, timeLimitRange.lowerBound), timeLimitRange.upperBound)
    }

    /// What a hosted sketch session enforces for every member.
    public var sessionSettings: SessionSettings {
        SessionSettings(clearAllowed: clearAllowed, eraserAllowed: eraserAllowed)
    }
}
