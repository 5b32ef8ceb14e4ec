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

    @Test func inAGameTheHostsSoundsChoiceWins() {
        let quiet = ClassroomSettings(soundsOn: false)
        #expect(quiet.soundsOn(hostChoice: true))
        #expect(!ClassroomSettings(soundsOn: true).soundsOn(hostChoice: false))
        #expect(!quiet.soundsOn(hostChoice: nil), "alone, the device's own choice")
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
