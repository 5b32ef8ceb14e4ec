import Foundation
import LearnModel

/// The profile and the classroom settings, loaded once when the app starts
/// and handed to every screen. Changes go through here so the value in
/// memory and the files never disagree.
///
/// The classroom settings come, first to last: from the class's record
/// synced from the school server (when this device belongs to a class),
/// from what the teacher set on this device with the PIN, or the defaults.
/// A profile from before the teacher owned the settings may still hold
/// the old sounds switch; it counts until a teacher saves this computer's
/// settings.
@MainActor
public final class DevicePreferences {
    public private(set) var profile: Profile
    /// The classroom's settings, as the teacher set them.
    public private(set) var classroom: ClassroomSettings
    /// The settings in force, environment overrides included.
    public private(set) var settings: ClassroomSettings
    public private(set) var device: DeviceClassroom
    /// The class's synced settings, when this device belongs to a class.
    private var classRecord: ClassSettingsRecord?
    private let client: ProfileClient
    private let classroomClient: DeviceClassroomClient
    private var overrides: SettingsOverrides
    /// The kiosk's files: the machine's (read only) and the user's (what the
    /// teacher's window sets).
    private let kioskClient: KioskConfigClient
    private var kioskSystem = KioskConfigFile()
    public private(set) var kioskUser = KioskConfigFile()
    /// Lines of the kiosk files that could not be read, for the log.
    public private(set) var kioskProblems: [String] = []
    /// How this machine behaves unattended, the two files merged.
    public var kiosk: KioskSettings { overrides.kiosk }

    public init(client: ProfileClient, classroom: DeviceClassroomClient = .inMemory(), overrides: SettingsOverrides,
                kiosk: KioskConfigClient = .inMemory(), userName: String?) {
        self.client = client
        classroomClient = classroom
        self.overrides = overrides
        kioskClient = kiosk
        let system = kiosk.loadSystem().map(KioskConfigFile.parse)
        let user = kiosk.loadUser().map(KioskConfigFile.parse)
        kioskSystem = system?.file ?? KioskConfigFile()
        kioskUser = user?.file ?? KioskConfigFile()
        kioskProblems = (system?.problems ?? []).map { KioskConfigClient.systemPath + ": " + $0 }
            + (user?.problems ?? []).map { "kiosk.conf: " + $0 }
        self.overrides.kiosk = kioskSystem.overridden(by: kioskUser).settings
        profile = Profile.resolved(stored: client.load(), userName: userName)
        device = classroom.load()
        self.classroom = .defaults
        settings = .defaults
        resolve()
    }

    /// The live files and the process environment.
    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> DevicePreferences {
        DevicePreferences(client: .live(environment: environment), classroom: .live(environment: environment),
                          overrides: SettingsOverrides(environment: environment),
                          kiosk: .live(environment: environment), userName: environment["USER"])
    }

    private func resolve() {
        if let record = classRecord ?? device.settings {
            classroom = ClassroomSettings(record: record)
        } else {
            classroom = .defaults
            classroom.soundsOn = profile.soundsOn ?? ClassroomSettings.defaults.soundsOn
        }
        settings = overrides.applied(to: classroom)
    }

    /// Whether a game plays sounds on this device: what the environment
    /// fixes for this run comes first (a test machine, a quiet demo), then
    /// the host's choice in a LAN game (from its lobby), then the classroom's.
    public func soundsOn(hostChoice: Bool? = nil) -> Bool {
        overrides.soundsOn(hostChoice: hostChoice, classroom: classroom)
    }

    /// What a hosting device offers the others in its lobby: the
    /// classroom's choice. What the environment fixes is for this machine only.
    public var soundsChoiceForOthers: Bool { classroom.soundsOn }

    /// The player for a game: the live one (made only then) or silence.
    public func soundClient(hostChoice: Bool? = nil, live: () -> SoundClient) -> SoundClient {
        SoundClient.choosing(soundsOn: soundsOn(hostChoice: hostChoice), live: live)
    }

    /// The pupil typed a name (e.g. when joining). Blank names keep the old one.
    public func rename(to name: String) throws(PreferencesError) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != profile.name else { return }
        profile.name = trimmed
        do {
            try client.save(profile)
        } catch {
            throw PreferencesError.notSaved(underlying: error)
        }
    }

    /// The pupil said who they are on the "Me" screen: a name (blank keeps
    /// the old one) and the picture they drew (nil: none). A picture that
    /// is not an acceptable PNG is refused.
    public func setIdentity(name: String, avatarPNG: Data?) throws(PreferencesError) {
        if let avatarPNG, !AvatarPNG.isAcceptable(avatarPNG) { throw .badPicture }
        var changed = profile
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { changed.name = trimmed }
        changed.avatarPNG = avatarPNG
        do {
            try client.save(changed)
        } catch {
            throw PreferencesError.notSaved(underlying: error)
        }
        profile = changed
    }

    /// The class this device belongs to sent its settings (nil: none, or no
    /// class): they replace the device's own at once.
    public func adoptClassSettings(_ record: ClassSettingsRecord?) {
        guard record != classRecord else { return }
        classRecord = record
        resolve()
    }

    /// Whether the class's synced settings are in force (the device's own
    /// settings then only wait).
    public var followsClass: Bool { classRecord != nil }

    /// The teacher changed this device's settings: in force at once (unless
    /// the class's synced settings rule) and remembered.
    public func setDeviceSettings(_ new: ClassroomSettings, now: Date = Date()) throws(PreferencesError) {
        var changed = device
        changed.settings = new.record(at: UnixMilliseconds.milliseconds(now))
        try saveDevice(changed)
    }

    /// Someone signed in to a school server here: the device remembers the
    /// server (and a pupil's class) for the next pupil's picture sign-in.
    public func rememberSchool(_ signIn: SchoolSignIn) throws(PreferencesError) {
        var changed = device
        changed.server = signIn.server
        changed.trustedCertificates = signIn.trustedCertificates
        if let classID = signIn.classID { changed.classID = classID }
        guard changed != device else { return }
        try saveDevice(changed)
    }

    /// The first start's choice "Use without a server": not asked again.
    public func useWithoutServer() throws(PreferencesError) {
        var changed = device
        changed.standalone = true
        try saveDevice(changed)
    }

    /// The teacher set this laptop up for one of their classes: the start
    /// screen's picture sign-in goes to that class's names.
    public func belongToClass(_ classID: SchoolClassID, of signIn: SchoolSignIn) throws(PreferencesError) {
        var changed = device
        changed.server = signIn.server
        changed.trustedCertificates = signIn.trustedCertificates
        changed.classID = classID
        try saveDevice(changed)
    }

    /// The first start's set-up was left before a class was chosen: the
    /// server a sign-in remembered is forgotten again.
    public func forgetSchool() throws(PreferencesError) {
        var changed = device
        changed.server = nil
        changed.trustedCertificates = nil
        changed.classID = nil
        try saveDevice(changed)
    }

    /// The PIN gate after a try, kept so a restart does not reset it.
    public func setPINGate(_ gate: TeacherPINGate) throws(PreferencesError) {
        var changed = device
        changed.gate = gate
        try saveDevice(changed)
    }

    /// Sets or changes the PIN that opens the teacher's window here.
    public func setTeacherPIN(_ pin: TeacherPIN) throws(PreferencesError) {
        var changed = device
        changed.pin = pin
        try saveDevice(changed)
    }

    /// The teacher set this machine's kiosk switches: written to the user's
    /// file (the machine's file stays as the admin wrote it) and in force at
    /// once.
    public func setKiosk(_ file: KioskConfigFile) throws(PreferencesError) {
        do {
            try kioskClient.saveUser(file.text)
        } catch {
            throw .notSaved(underlying: error)
        }
        kioskUser = file
        overrides.kiosk = kioskSystem.overridden(by: kioskUser).settings
        resolve()
    }

    private func saveDevice(_ changed: DeviceClassroom) throws(PreferencesError) {
        do {
            try classroomClient.save(changed)
        } catch {
            throw PreferencesError.notSaved(underlying: error)
        }
        device = changed
        resolve()
    }
}

/// The change could not be written down; nothing changed.
public enum PreferencesError: Error, CustomStringConvertible {
    case notSaved(underlying: any Error)
    case badPicture

    public var description: String {
        switch self {
        case .notSaved(let e): "the settings could not be written: \(e)"
        case .badPicture: "the picture is not a PNG of at most 512 × 512 pixels and 64 KiB"
        }
    }
}
