import Foundation

/// Settings fixed from outside the classroom's: a test machine or a quiet
/// demo sets `TEAMSKETCH_SOUNDS=0` (or `1`) for one run, and a kiosk's
/// files (`KioskSettings`) fix sounds and narrow the activities for the
/// machine. Anything else in the variable is ignored.
public struct SettingsOverrides: Equatable, Sendable {
    public var soundsOn: Bool?
    public var kiosk: KioskSettings

    public init(soundsOn: Bool? = nil, kiosk: KioskSettings = KioskSettings()) {
        self.soundsOn = soundsOn
        self.kiosk = kiosk
    }

    public init(environment: [String: String], kiosk: KioskSettings = KioskSettings()) {
        self.kiosk = kiosk
        switch environment["TEAMSKETCH_SOUNDS"] {
        case "0": soundsOn = false
        case "1": soundsOn = true
        default: soundsOn = nil
        }
    }

    /// Sounds in a game: fixed for this run, else for this machine (the
    /// kiosk), else the host's choice in a LAN game, else the classroom's.
    /// What is set for this machine on purpose comes first, and a lobby is
    /// anybody's.
    public func soundsOn(hostChoice: Bool?, classroom: ClassroomSettings) -> Bool {
        soundsOn ?? kiosk.sounds ?? hostChoice ?? classroom.soundsOn
    }

    /// The settings in force: the classroom's, then what the environment
    /// and the kiosk fix on top.
    public func applied(to classroom: ClassroomSettings) -> ClassroomSettings {
        var s = classroom
        s.soundsOn = soundsOn ?? kiosk.sounds ?? classroom.soundsOn
        s.activities = kiosk.activities(classroom: classroom.activities)
        return s
    }
}
