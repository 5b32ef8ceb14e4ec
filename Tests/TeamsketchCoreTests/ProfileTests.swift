import Foundation
import TeamsketchCore
import TeamsketchTestSupport
import Testing

@Test func profileKeepsNameAndSoundsThroughJSON() throws {
    let p = Profile(name: "Mia", soundsOn: false)
    let back = try JSONDecoder().decode(Profile.self, from: JSONEncoder().encode(p))
    #expect(back.name == "Mia")
    #expect(back.soundsOn == false)
}

@Test(arguments: [("mia", "Mia"), ("root", "Pupil"), ("", "Pupil"), (nil, "Pupil")] as [(String?, String)])
func withoutAStoredNameTheLoginNameIsUsed(user: String?, expected: String) {
    #expect(Profile.resolved(stored: nil, userName: user).name == expected)
    #expect(Profile.resolved(stored: Profile(name: ""), userName: user).name == expected)
    #expect(Profile.resolved(stored: Profile(name: "Ole"), userName: user).name == "Ole")
}

@Test func theLiveClientKeepsTheProfileUnderXDGConfigHome() throws {
    let dir = TempDir()
    let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
    let client = ProfileClient.live(environment: env)
    #expect(client.load() == nil)
    try client.save(Profile(name: "Mia", soundsOn: false))
    #expect(FileManager.default.fileExists(atPath: dir.path + "/teamsketch/profile.json"))
    #expect(ProfileClient.live(environment: env).load() == Profile(name: "Mia", soundsOn: false))
    // A relative XDG_CONFIG_HOME is not a config folder: HOME's is used.
    #expect(ProfileClient.profilePath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/teamsketch/profile.json")
}

@MainActor
@Suite struct DevicePreferencesTests {
    @Test func theProfileIsLoadedOnceAtStart() {
        let loads = Tally()
        let memory = ProfileClient.inMemory(Profile(name: "Mia", soundsOn: false))
        let client = ProfileClient(load: { loads.add(); return memory.load() }, save: memory.save)
        let prefs = DevicePreferences(client: client, overrides: SettingsOverrides(), userName: "mia")
        _ = (prefs.profile.name, prefs.settings.soundsOn, prefs.profile.name, prefs.settings)
        #expect(loads.count == 1)
        #expect(prefs.profile.name == "Mia")
        #expect(!prefs.settings.soundsOn)
    }

    @Test func renamingSavesAndBlankNamesKeepTheOldOne() throws {
        let client = ProfileClient.inMemory()
        let prefs = DevicePreferences(client: client, overrides: SettingsOverrides(), userName: "ole")
        #expect(prefs.profile.name == "Ole")
        try prefs.rename(to: "  Mia ")
        #expect(prefs.profile.name == "Mia")
        #expect(client.load()?.name == "Mia")
        try prefs.rename(to: "   ")
        #expect(prefs.profile.name == "Mia")
    }

    @Test func aProfileFromBeforeTheTeacherSetSoundsKeepsItsSwitchUntilTheTeacherDoes() throws {
        let classroom = DeviceClassroomClient.inMemory()
        let prefs = DevicePreferences(client: .inMemory(Profile(name: "Mia", soundsOn: false)), classroom: classroom,
                                      overrides: SettingsOverrides(), userName: nil)
        #expect(!prefs.settings.soundsOn)
        try prefs.setDeviceSettings(ClassroomSettings(soundsOn: true, eraserAllowed: false))
        #expect(prefs.settings.soundsOn && !prefs.settings.eraserAllowed)
        #expect(classroom.load().settings?.eraserAllowed == false, "remembered for the next start")
    }

    @Test func theClassesSyncedSettingsRuleOverTheDevicesOwn() throws {
        let prefs = DevicePreferences(client: .inMemory(), classroom: .inMemory(), overrides: SettingsOverrides(soundsOn: true),
                                      userName: "mia")
        try prefs.setDeviceSettings(ClassroomSettings(eraserAllowed: false))
        prefs.adoptClassSettings(ClassroomSettings(soundsOn: false, eraserAllowed: true, undoAllowed: false).record(at: 1))
        #expect(prefs.followsClass)
        #expect(prefs.settings.eraserAllowed && !prefs.settings.undoAllowed)
        #expect(prefs.settings.soundsOn, "the environment still fixes this machine's sounds")
        #expect(!prefs.soundsChoiceForOthers, "a hosting device offers the class's choice")
        prefs.adoptClassSettings(nil)
        #expect(!prefs.settings.eraserAllowed, "signed out of the class: the device's own again")
    }

    @Test func settingsThatCannotBeWrittenChangeNothing() {
        let prefs = DevicePreferences(client: .inMemory(), classroom: DeviceClassroomClient(load: { DeviceClassroom() },
                                                                                           save: { _ in throw StoreDown() }),
                                      overrides: SettingsOverrides(), userName: "mia")
        #expect(throws: PreferencesError.self) { try prefs.setDeviceSettings(ClassroomSettings(eraserAllowed: false)) }
        #expect(prefs.settings.eraserAllowed)
    }

    @Test func theLiveClassroomFileIsPrivateAndAnOversizedOneIsIgnored() throws {
        let dir = TempDir()
        let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
        let client = DeviceClassroomClient.live(environment: env)
        #expect(client.load() == DeviceClassroom())
        let pin = try #require(TeacherPIN.make("2468", salt: [1, 2, 3]))
        try client.save(DeviceClassroom(pin: pin, settings: ClassroomSettings(undoAllowed: false).record(at: 5)))
        let path = dir.path + "/teamsketch/classroom.json"
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(DeviceClassroomClient.live(environment: env).load().pin == pin)
        try Data(repeating: 0x20, count: DeviceClassroomClient.maxFileBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(DeviceClassroomClient.live(environment: env).load().unreadable, "too big: damaged, not absent")
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(DeviceClassroomClient.live(environment: env).load() == .damaged)
    }
}
