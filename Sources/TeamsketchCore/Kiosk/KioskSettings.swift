import Foundation
import LearnModel

/// How the app behaves on a machine pupils use unattended (a touchscreen in
/// the corridor, a classroom laptop): set by the school's admin in a file
/// and by the teacher in the teacher's window. Everything is off unless
/// said otherwise, so an ordinary desktop is unchanged.
public struct KioskSettings: Equatable, Sendable {
    /// The window covers the screen.
    public var fullscreen = false
    /// Closing the window (or quitting) asks for the teacher's PIN.
    public var quitNeedsPIN = false
    /// The activities the start screen may offer; nil: as the classroom
    /// settings say. Both apply: an activity shows when both allow it.
    public var activities: Set<ClassSettingsRecord.Activity>?
    /// After this many minutes without a touch, a key or a click, the work
    /// is saved and the start screen comes back for the next child. 0: never.
    public var idleMinutes = 0
    /// Sounds on or off for this machine, whatever the classroom says; nil:
    /// as the classroom says.
    public var sounds: Bool?

    public static let idleMinutesRange = 0...240

    public init(fullscreen: Bool = false, quitNeedsPIN: Bool = false, activities: Set<ClassSettingsRecord.Activity>? = nil,
                idleMinutes: Int = 0, sounds: Bool? = nil) {
        self.fullscreen = fullscreen
        self.quitNeedsPIN = quitNeedsPIN
        self.activities = activities
        self.idleMinutes = min(max(idleMinutes, Self.idleMinutesRange.lowerBound), Self.idleMinutesRange.upperBound)
        self.sounds = sounds
    }

    /// The start screen's activities: the classroom's, narrowed by the
    /// kiosk's. Never none: if the two leave nothing, the classroom's stand,
    /// since a start screen with nothing on it leaves the pupils stuck.
    public func activities(classroom: Set<ClassSettingsRecord.Activity>) -> Set<ClassSettingsRecord.Activity> {
        guard let activities else { return classroom }
        let both = classroom.intersection(activities)
        return both.isEmpty ? classroom : both
    }

    /// Whether the work on screen is saved and the start screen shown:
    /// the machine has been left alone long enough, and is not there already.
    /// `limit`: the idle time in seconds instead of the configured minutes
    /// (the UI tests' few seconds); only where minutes are configured.
    public func shouldReturnHome(lastInput: Date, now: Date, atHome: Bool, limit: TimeInterval? = nil) -> Bool {
        guard idleMinutes > 0, !atHome else { return false }
        return now.timeIntervalSince(lastInput) >= (limit ?? Double(idleMinutes) * 60)
    }

    /// Whether the window may close now: without the PIN rule always; with
    /// it only while the teacher's window is unlocked (the teacher typed the
    /// PIN to get there).
    public func mayClose(teacherUnlocked: Bool) -> Bool { !quitNeedsPIN || teacherUnlocked }
}
