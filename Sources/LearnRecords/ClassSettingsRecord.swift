import Foundation
import LearnSketch

/// A class's classroom settings as the teacher set them, which the pupils'
/// devices obey. Sent whole; the last change in server order wins.
public struct ClassSettingsRecord: Codable, Hashable, Sendable {
    public enum Activity: String, Codable, CaseIterable, Sendable { case teamSketch, wordPost }

    public var soundsOn: Bool
    public var eraserAllowed: Bool
    /// Pupils may erase only the strokes they drew themselves.
    public var eraserOwnStrokesOnly: Bool
    public var clearAllowed: Bool
    /// Pupils may take back their own last strokes.
    public var undoAllowed: Bool
    /// Minutes, 0 for none; never above `maxTimeLimitMinutes` when that is set.
    public var defaultTimeLimitMinutes: Int
    /// Minutes, 0 for no maximum.
    public var maxTimeLimitMinutes: Int
    public var activities: [Activity]
    /// Sessions are joined through the school server even when the host
    /// could be reached directly (a network that only seems to connect).
    /// Absent in records from before it existed: off.
    public var throughSchoolServer: Bool?
    /// A finger draws on a touchscreen; off, only a stylus or the mouse
    /// draws and a finger moves the sheet. Absent in older records: on.
    public var fingerDraws: Bool?
    public var at: Int64

    public init(soundsOn: Bool = true, eraserAllowed: Bool = true, eraserOwnStrokesOnly: Bool = true,
                clearAllowed: Bool = false, undoAllowed: Bool = true, defaultTimeLimitMinutes: Int = 0,
                maxTimeLimitMinutes: Int = 0, activities: [Activity] = Activity.allCases,
                throughSchoolServer: Bool? = nil, fingerDraws: Bool? = nil, at: Int64) {
        self.soundsOn = soundsOn; self.eraserAllowed = eraserAllowed
        self.eraserOwnStrokesOnly = eraserOwnStrokesOnly; self.clearAllowed = clearAllowed
        self.undoAllowed = undoAllowed; self.defaultTimeLimitMinutes = defaultTimeLimitMinutes
        self.maxTimeLimitMinutes = maxTimeLimitMinutes; self.activities = activities
        self.throughSchoolServer = throughSchoolServer; self.fingerDraws = fingerDraws; self.at = at
    }

    /// Why the settings cannot be stored, or nil when they can.
    public var problem: String? {
        let range = SketchLimits.timeLimitMinutes
        guard range.contains(defaultTimeLimitMinutes), range.contains(maxTimeLimitMinutes) else {
            return "a time limit is \(range.lowerBound) to \(range.upperBound) minutes"
        }
        if maxTimeLimitMinutes > 0, defaultTimeLimitMinutes > maxTimeLimitMinutes {
            return "the default time limit is above the maximum"
        }
        if activities.count > Activity.allCases.count { return "an activity is listed twice" }
        return nil
    }
}
