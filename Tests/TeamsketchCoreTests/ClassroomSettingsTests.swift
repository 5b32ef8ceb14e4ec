import Foundation
import LearnModel
import TeamsketchCore
import Testing

@Suite struct ClassroomSettingsTests {
    @Test func defaultsAreSoundsOnClearOffEraserOnNoTimeLimit() {
        let s = ClassroomSettings.defaults
        #expect(s.soundsOn)
        #expect(!s.clearAllowed)
        #expect(s.eraserAllowed)
        #expect(s.timeLimitMinutes == 0)
        #expect(s.sessionSettings == SessionSettings(clearAllowed: false, eraserAllowed: true))
    }

    @Test func theTimeLimitStaysWithinTwoHours() {
        var s = ClassroomSettings(timeLimitMinutes: 500)
        #expect(s.timeLimitMinutes == 120)
        s.timeLimitMinutes = -5
        #expect(s.timeLimitMinutes == 0)
        s.timeLimitMinutes = 45
        #expect(s.timeLimitMinutes == 45)
    }

    @Test func hostingPassesClearAndEraserToTheSession() {
        let s = ClassroomSettings(clearAllowed: true, eraserAllowed: false)
        #expect(s.sessionSettings.clearAllowed)
        #expect(!s.sessionSettings.eraserAllowed)
    }

    @MainActor func preferences(switch on: Bool, environment: [String: String] = [:]) -> DevicePreferences {
        DevicePreferences(client: .inMemory(Profile(name: "Mia", soundsOn: on)),
                          overrides: SettingsOverrides(environment: environment), userName: nil)
    }

    @Test @MainActor func inAGameTheHostsSoundsChoiceWinsOverTheSwitch() {
        let quiet = preferences(switch: false)
        #expect(quiet.soundsOn(hostChoice: true))
        #expect(!preferences(switch: true).soundsOn(hostChoice: false))
        #expect(!quiet.soundsOn(hostChoice: nil), "alone, the device's own choice")
    }

    @Test @MainActor func theEnvironmentWinsOverTheHostsChoice() {
        // A test machine or a quiet demo set TEAMSKETCH_SOUNDS: no host's
        // lobby may switch it back on (or off).
        #expect(!preferences(switch: true, environment: ["TEAMSKETCH_SOUNDS": "0"]).soundsOn(hostChoice: true))
        #expect(preferences(switch: false, environment: ["TEAMSKETCH_SOUNDS": "1"]).soundsOn(hostChoice: false))
    }

    @Test @MainActor func aHostOffersItsOwnSwitchNotWhatItsEnvironmentFixes() {
        // A host started with TEAMSKETCH_SOUNDS=0 for a demo is quiet
        // itself; the pupils' devices follow the switch the host set.
        let quietHost = preferences(switch: true, environment: ["TEAMSKETCH_SOUNDS": "0"])
        #expect(!quietHost.soundsOn())
        #expect(quietHost.soundsChoiceForOthers)
        #expect(!preferences(switch: false, environment: ["TEAMSKETCH_SOUNDS": "1"]).soundsChoiceForOthers)
    }

    @Test @MainActor func theSoundPlayerFollowsTheDecision() {
        var made = 0
        let live: () -> SoundClient = { made += 1; return SoundClient { _ in } }
        _ = preferences(switch: true, environment: ["TEAMSKETCH_SOUNDS": "0"]).soundClient(hostChoice: true, live: live)
        #expect(made == 0, "silenced by the environment: no live player")
        _ = preferences(switch: false).soundClient(hostChoice: true, live: live)
        #expect(made == 1, "the host wants sounds and nothing fixes them")
        _ = preferences(switch: false).soundClient(live: live)
        #expect(made == 1, "alone with the switch off")
    }

    @Test(arguments: [("0", false, true), ("1", true, false), ("yes", true, true), (nil, false, false)] as [(String?, Bool, Bool)])
    func theEnvironmentOverridesTheSoundsSwitch(value: String?, expected: Bool, stored: Bool) {
        let overrides = SettingsOverrides(environment: value.map { ["TEAMSKETCH_SOUNDS": $0] } ?? [:])
        #expect(overrides.settings(from: Profile(name: "Mia", soundsOn: stored)).soundsOn == expected)
    }

    @Test func aProfileThatNeverSwitchedSoundsHasThemOn() {
        #expect(SettingsOverrides().settings(from: Profile(name: "Mia")).soundsOn)
    }
}

@Suite struct SketchPermissionsTests {
    @Test func aloneEverythingButClearing() {
        #expect(SketchPermissions.solo(.defaults) == SketchPermissions(mayDraw: true, mayErase: true, mayClear: false))
        #expect(!SketchPermissions.solo(ClassroomSettings(eraserAllowed: false)).mayErase)
    }

    @Test func onlyTheHostClearsAndOnlyWhenAllowed() {
        let allowed = SessionSettings(clearAllowed: true)
        #expect(SketchPermissions.shared(isHost: true, role: .drawer, session: allowed).mayClear)
        #expect(!SketchPermissions.shared(isHost: false, role: .drawer, session: allowed).mayClear)
        #expect(!SketchPermissions.shared(isHost: true, role: .drawer, session: SessionSettings()).mayClear)
    }

    @Test func observersOnlyWatch() {
        #expect(SketchPermissions.shared(isHost: false, role: .observer, session: SessionSettings(clearAllowed: true))
                == SketchPermissions(mayDraw: false, mayErase: false, mayClear: false))
    }

    @Test func theHostsEraserSettingHoldsForMembers() {
        let noEraser = SessionSettings(eraserAllowed: false)
        #expect(!SketchPermissions.shared(isHost: false, role: .drawer, session: noEraser).mayErase)
        #expect(SketchPermissions.shared(isHost: false, role: .drawer, session: nil).mayErase)
    }
}
