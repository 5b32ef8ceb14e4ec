import Foundation

/// The profile and the classroom settings, loaded once when the app starts
/// and handed to every screen. Changes go through here so the value in
/// memory and the file never disagree.
@MainActor
public final class DevicePreferences {
    public private(set) var profile: Profile
    /// The settings in force, environment overrides included.
    public private(set) var settings: ClassroomSettings
    private let client: ProfileClient
    private let overrides: SettingsOverrides

    public init(client: ProfileClient, overrides: SettingsOverrides, userName: String?) {
        self.client = client
        self.overrides = overrides
        profile = Profile.resolved(stored: client.load(), userName: userName)
        settings = overrides.settings(from: profile)
    }

    /// The live file and the process environment.
    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> DevicePreferences {
        DevicePreferences(client: .live(environment: environment), overrides: SettingsOverrides(environment: environment),
                          userName: environment["USER"])
    }

    /// Whether a game plays sounds on this device: what the environment
    /// fixes for this run comes first (a test machine, a quiet demo), then
    /// the host's choice in a LAN game (from its lobby), then this device's
    /// own switch.
    public func soundsOn(hostChoice: Bool? = nil) -> Bool {
        overrides.soundsOn(hostChoice: hostChoice, device: settings)
    }

    /// What a hosting device offers the others in its lobby: its own
    /// switch. What the environment fixes is for this machine only.
    public var soundsChoiceForOthers: Bool {
        profile.soundsOn ?? ClassroomSettings.defaults.soundsOn
    }

    /// The player for a game: the live one (made only then) or silence.
    public func soundClient(hostChoice: Bool? = nil, live: () -> SoundClient) -> SoundClient {
        SoundClient.choosing(soundsOn: soundsOn(hostChoice: hostChoice), live: live)
    }

    /// The pupil typed a name (e.g. when joining). Blank names keep the old one.
    public func rename(to name: String) throws(PreferencesError) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != profile.name else { return }
        profile.name = trimmed
        try save()
    }

    /// The sounds switch: remembered for the next start; in force at once
    /// unless the environment fixes it.
    public func setSoundsOn(_ on: Bool) throws(PreferencesError) {
        profile.soundsOn = on
        settings = overrides.settings(from: profile)
        try save()
    }

    private func save() throws(PreferencesError) {
        do {
            try client.save(profile)
        } catch {
            throw PreferencesError.notSaved(underlying: error)
        }
    }
}

/// The change is in force for this run but could not be written down.
public enum PreferencesError: Error, CustomStringConvertible {
    case notSaved(underlying: any Error)

    public var description: String {
        switch self {
        case .notSaved(let e): "the profile could not be written: \(e)"
        }
    }
}
