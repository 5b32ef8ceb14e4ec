import Foundation

/// Settings fixed from outside the app for one run: a test machine or a
/// quiet demo sets `TEAMSKETCH_SOUNDS=0` (or `1`) and the classroom setting
/// no longer matters on this machine. Anything else in the variable is ignored.
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

    /// Sounds in a game: fixed here, else the host's choice in a LAN game,
    /// else the classroom's. The environment comes first because it is set
    /// for this machine on purpose, and a lobby is anybody's.
    public func soundsOn(hostChoice: Bool?, classroom: ClassroomSettings) -> Bool {
        soundsOn ?? hostChoice ?? classroom.soundsOn
    }

    /// The settings in force: the classroom's, then what the environment
    /// fixes on top.
    public func applied(to classroom: ClassroomSettings) -> ClassroomSettings {
        var s = classroom
        s.soundsOn = soundsOn ?? classroom.soundsOn
        return s
    }
}
