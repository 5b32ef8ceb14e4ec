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

    @Test func theSoundsSwitchIsRememberedButTheEnvironmentStillWins() throws {
        let client = ProfileClient.inMemory(Profile(name: "Mia"))
        let free = DevicePreferences(client: client, overrides: SettingsOverrides(), userName: nil)
        try free.setSoundsOn(false)
        #expect(!free.settings.soundsOn)
        #expect(client.load()?.soundsOn == false)

        let fixed = DevicePreferences(client: client, overrides: SettingsOverrides(soundsOn: false), userName: nil)
        try fixed.setSoundsOn(true)
        #expect(!fixed.settings.soundsOn)
        #expect(client.load()?.soundsOn == true)
    }

    @Test func aProfileThatCannotBeWrittenStaysInForceForThisRun() {
        let client = ProfileClient(load: { nil }, save: { _ in throw StoreDown() })
        let prefs = DevicePreferences(client: client, overrides: SettingsOverrides(), userName: "mia")
        #expect(throws: PreferencesError.self) { try prefs.setSoundsOn(false) }
        #expect(!prefs.settings.soundsOn)
    }
}
