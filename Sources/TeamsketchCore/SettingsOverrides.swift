import Foundation

/// Settings fixed from outside the app for one run: a test machine or a
/// quiet demo sets `TEAMSKETCH_SOUNDS=0` (or `1`) and the switch on screen
/// no longer matters. Anything else in the variable is ignored.
public struct SettingsOverrides: Equatable, Sendable {
    public var soundsOn: Bool?

    public init(soundsOn: Bool? = nil) { self.soundsOn = soundsOn }

    public init(environment: [String: String]) {
        switch environment["TEAMSKETCH_SOUNDS"] {
        case "0": soundsOn = false
        case "1": soundsOn = true
        default: soundsOn = nil
        }
    }

    /// The settings in force: the stored profile's choices, then what the
    /// environment fixes on top.
    public func settings(from profile: Profile, defaults: ClassroomSettings = .defaults) -> ClassroomSettings {
        var s = defaults
        s.soundsOn = soundsOn ?? profile.soundsOn ?? defaults.soundsOn
        return s
    }
}
