import Foundation
import LearnModel

/// The choices that shape a lesson, as the teacher set them for the class
/// (or for this device, with the teacher's PIN), and what each means. The
/// pupils' screens only read them; no pupil-facing control changes them.
public struct ClassroomSettings: Equatable, Sendable {
    /// Buchstaben Post's sounds. In a game on the LAN the host's choice
    /// applies to every device.
    public var soundsOn: Bool
    /// Whether the host of a shared sketch may clear the sheet for
    /// everyone. Off, because one tap would wipe every child's work; only
    /// ever the host's button.
    public var clearAllowed: Bool
    /// Whether pupils may erase strokes (whole strokes; erasing is kept in
    /// the replay).
    public var eraserAllowed: Bool
    /// The eraser takes only the pupil's own strokes. On unless the teacher
    /// says otherwise: in the field studies children got angry when
    /// classmates rubbed out their shapes.
    public var eraserOwnStrokesOnly: Bool
    /// Pupils may take back what they did last, one tap each: only their
    /// own lines, never a classmate's (children undoing each other was the
    /// other quarrel the studies saw).
    public var undoAllowed: Bool
    /// 0 for no maximum; otherwise no sketch is started with a longer limit.
    public private(set) var maxTimeLimitMinutes: Int
    /// A new sketch's time limit in minutes, 0 for none; always within
    /// `timeLimitRange` and never above the maximum.
    public var defaultTimeLimitMinutes: Int {
        didSet { defaultTimeLimitMinutes = clampedTimeLimit(defaultTimeLimitMinutes) }
    }
    /// The activities the start screen offers.
    public var activities: Set<ClassSettingsRecord.Activity>
    /// A session both nearby and at the school server is joined through
    /// the server first: for Wi-Fi that passes a host's signal but not its
    /// connections, where trying the direct way first only costs time.
    public var throughSchoolServer: Bool
    /// A finger draws on a touchscreen. Off for classes with styluses, where
    /// a finger should only move the sheet.
    public var fingerDraws: Bool

    /// A sketch may run for at most two hours (a double lesson).
    public static let timeLimitRange = SketchLimits.timeLimitMinutes
    public static let defaults = ClassroomSettings()

    public init(soundsOn: Bool = true, clearAllowed: Bool = false, eraserAllowed: Bool = true,
                eraserOwnStrokesOnly: Bool = true, undoAllowed: Bool = true, defaultTimeLimitMinutes: Int = 0,
                maxTimeLimitMinutes: Int = 0, activities: Set<ClassSettingsRecord.Activity> = Set(ClassSettingsRecord.Activity.allCases),
                throughSchoolServer: Bool = false, fingerDraws: Bool = true) {
        self.soundsOn = soundsOn
        self.clearAllowed = clearAllowed
        self.eraserAllowed = eraserAllowed
        self.eraserOwnStrokesOnly = eraserOwnStrokesOnly
        self.undoAllowed = undoAllowed
        self.maxTimeLimitMinutes = min(max(maxTimeLimitMinutes, Self.timeLimitRange.lowerBound), Self.timeLimitRange.upperBound)
        self.defaultTimeLimitMinutes = 0
        self.activities = activities
        self.throughSchoolServer = throughSchoolServer
        self.fingerDraws = fingerDraws
        self.defaultTimeLimitMinutes = clampedTimeLimit(defaultTimeLimitMinutes)
    }

    /// The settings a synced or stored record describes. A record whose
    /// values break the rules (a damaged file, an older writer) is read as
    /// safely as it can be: limits clamped, an empty activity list meaning all.
    public init(record r: ClassSettingsRecord) {
        let listed = Set(r.activities)
        self.init(soundsOn: r.soundsOn, clearAllowed: r.clearAllowed, eraserAllowed: r.eraserAllowed,
                  eraserOwnStrokesOnly: r.eraserOwnStrokesOnly, undoAllowed: r.undoAllowed,
                  defaultTimeLimitMinutes: r.defaultTimeLimitMinutes, maxTimeLimitMinutes: r.maxTimeLimitMinutes,
                  activities: listed.isEmpty ? Set(ClassSettingsRecord.Activity.allCases) : listed,
                  throughSchoolServer: r.throughSchoolServer ?? false, fingerDraws: r.fingerDraws ?? true)
    }

    /// The record to store or sync, stamped with when it was set.
    public func record(at milliseconds: Int64) -> ClassSettingsRecord {
        ClassSettingsRecord(soundsOn: soundsOn, eraserAllowed: eraserAllowed, eraserOwnStrokesOnly: eraserOwnStrokesOnly,
                            clearAllowed: clearAllowed, undoAllowed: undoAllowed,
                            defaultTimeLimitMinutes: defaultTimeLimitMinutes, maxTimeLimitMinutes: maxTimeLimitMinutes,
                            activities: ClassSettingsRecord.Activity.allCases.filter(activities.contains),
                            throughSchoolServer: throughSchoolServer, fingerDraws: fingerDraws, at: milliseconds)
    }

    /// A lower maximum pulls the default down with it.
    public mutating func setMaxTimeLimit(_ minutes: Int) {
        maxTimeLimitMinutes = min(max(minutes, Self.timeLimitRange.lowerBound), Self.timeLimitRange.upperBound)
        defaultTimeLimitMinutes = clampedTimeLimit(defaultTimeLimitMinutes)
    }

    /// `minutes` within two hours and within the class's maximum. "No limit"
    /// is not allowed under a maximum: it becomes the maximum.
    public func clampedTimeLimit(_ minutes: Int) -> Int {
        let inRange = min(max(minutes, Self.timeLimitRange.lowerBound), Self.timeLimitRange.upperBound)
        guard maxTimeLimitMinutes > 0 else { return inRange }
        return inRange == 0 ? maxTimeLimitMinutes : min(inRange, maxTimeLimitMinutes)
    }

    public func offers(_ activity: ClassSettingsRecord.Activity) -> Bool { activities.contains(activity) }

    /// What a hosted sketch session enforces for every member.
    public var sessionSettings: SessionSettings {
        SessionSettings(clearAllowed: clearAllowed, eraserAllowed: eraserAllowed, undoOwnAllowed: undoAllowed,
                        eraserOwnStrokesOnly: eraserOwnStrokesOnly)
    }
}
