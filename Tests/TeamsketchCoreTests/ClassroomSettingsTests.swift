import Foundation
import LearnModel
import TeamsketchCore
import Testing

@Suite struct ClassroomSettingsTests {
    /// As the field studies asked: children got angry when classmates
    /// rubbed out or took back their shapes, so the eraser and undo take
    /// only one's own lines, and nobody clears the sheet, unless the
    /// teacher changes it. A class's first settings record says the same.
    @Test func defaultsAreSoundsOnClearOffOwnLinesOnlyNoTimeLimitBothActivities() {
        let s = ClassroomSettings.defaults
        #expect(s.soundsOn)
        #expect(!s.clearAllowed)
        #expect(s.eraserAllowed && s.eraserOwnStrokesOnly)
        #expect(s.undoAllowed)
        #expect(s.defaultTimeLimitMinutes == 0 && s.maxTimeLimitMinutes == 0)
        #expect(s.offers(.teamSketch) && s.offers(.wordPost))
        #expect(s.sessionSettings == SessionSettings(clearAllowed: false, eraserAllowed: true, undoOwnAllowed: true,
                                                     eraserOwnStrokesOnly: true))
        #expect(ClassroomSettings(record: ClassSettingsRecord(at: 0)) == s)
    }

    @Test func theTimeLimitStaysWithinTwoHoursAndTheClassMaximum() {
        var s = ClassroomSettings(defaultTimeLimitMinutes: 500)
        #expect(s.defaultTimeLimitMinutes == 120)
        s.defaultTimeLimitMinutes = -5
        #expect(s.defaultTimeLimitMinutes == 0)
        s.defaultTimeLimitMinutes = 45
        s.setMaxTimeLimit(30)
        #expect(s.defaultTimeLimitMinutes == 30, "a lower maximum pulls the default down")
        #expect(s.clampedTimeLimit(90) == 30)
        #expect(s.clampedTimeLimit(0) == 30, "under a maximum there is no 'no limit'")
        #expect(s.clampedTimeLimit(10) == 10)
        s.setMaxTimeLimit(999)
        #expect(s.maxTimeLimitMinutes == 120)
    }

    @Test func hostingPassesEveryDrawingRuleToTheSession() {
        let s = ClassroomSettings(clearAllowed: true, eraserAllowed: false, eraserOwnStrokesOnly: true, undoAllowed: false)
        #expect(s.sessionSettings == SessionSettings(clearAllowed: true, eraserAllowed: false, undoOwnAllowed: false,
                                                     eraserOwnStrokesOnly: true))
    }

    @Test func aRecordRoundTripsAndABrokenOneIsReadSafely() {
        let s = ClassroomSettings(soundsOn: false, clearAllowed: true, eraserAllowed: true, eraserOwnStrokesOnly: true,
                                  undoAllowed: false, defaultTimeLimitMinutes: 20, maxTimeLimitMinutes: 40,
                                  activities: [.wordPost], throughSchoolServer: true, fingerDraws: false)
        let record = s.record(at: 7)
        #expect(record.problem == nil)
        #expect(record.at == 7)
        #expect(ClassroomSettings(record: record) == s)
        let broken = ClassSettingsRecord(defaultTimeLimitMinutes: 900, maxTimeLimitMinutes: -3, activities: [], at: 0)
        let read = ClassroomSettings(record: broken)
        #expect(read.maxTimeLimitMinutes == 0 && read.defaultTimeLimitMinutes == 120)
        #expect(read.offers(.teamSketch) && read.offers(.wordPost), "no activity listed means all, never an empty start screen")
        // A record written before sessions could go through the server.
        let older = try? JSONDecoder().decode(ClassSettingsRecord.self, from: Data("""
            {"soundsOn":true,"eraserAllowed":true,"eraserOwnStrokesOnly":false,"clearAllowed":false,"undoAllowed":true,
             "defaultTimeLimitMinutes":0,"maxTimeLimitMinutes":0,"activities":["teamSketch"],"at":3}
            """.utf8))
        #expect(older.map { ClassroomSettings(record: $0).throughSchoolServer } == false)
        #expect(older.map { ClassroomSettings(record: $0).fingerDraws } == true)
        #expect(s.record(at: 1).throughSchoolServer == true)
    }

    /// A device whose teacher set the sounds `on`.
    @MainActor func preferences(switch on: Bool, environment: [String: String] = [:]) -> DevicePreferences {
        DevicePreferences(client: .inMemory(Profile(name: "Mia")),
                          classroom: .inMemory(DeviceClassroom(settings: ClassroomSettings(soundsOn: on).record(at: 0))),
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
    func theEnvironmentOverridesTheClassroomsSounds(value: String?, expected: Bool, classroom: Bool) {
        let overrides = SettingsOverrides(environment: value.map { ["TEAMSKETCH_SOUNDS": $0] } ?? [:])
        #expect(overrides.applied(to: ClassroomSettings(soundsOn: classroom)).soundsOn == expected)
    }
}

@Suite struct SketchPermissionsTests {
    @Test func aloneEverythingButClearing() {
        let solo = SketchPermissions.solo(.defaults)
        #expect(solo.mayDraw && solo.mayErase && solo.mayUndo && !solo.mayClear)
        #expect(!SketchPermissions.solo(ClassroomSettings(eraserAllowed: false)).mayErase)
        #expect(!SketchPermissions.solo(ClassroomSettings(undoAllowed: false)).mayUndo)
        #expect(SketchPermissions.solo(ClassroomSettings(eraserOwnStrokesOnly: true)).erase.ownStrokesOnly)
    }

    @Test func onlyTheHostClearsAndOnlyWhenAllowed() {
        let allowed = SessionSettings(clearAllowed: true)
        #expect(SketchPermissions.shared(isHost: true, role: .drawer, session: allowed).mayClear)
        #expect(!SketchPermissions.shared(isHost: false, role: .drawer, session: allowed).mayClear)
        #expect(!SketchPermissions.shared(isHost: true, role: .drawer, session: SessionSettings()).mayClear)
    }

    @Test func observersOnlyWatch() {
        let all = SessionSettings(clearAllowed: true, eraserAllowed: true, undoOwnAllowed: true)
        #expect(SketchPermissions.shared(isHost: false, role: .observer, session: all) == .watching)
        #expect(!SketchPermissions.watching.mayDraw && !SketchPermissions.watching.mayErase && !SketchPermissions.watching.mayUndo)
    }

    @Test func theHostsDrawingRulesHoldForMembers() {
        let strict = SessionSettings(eraserAllowed: false, undoOwnAllowed: false)
        let member = SketchPermissions.shared(isHost: false, role: .drawer, session: strict)
        #expect(!member.mayErase && !member.mayUndo)
        let ownOnly = SketchPermissions.shared(isHost: false, role: .drawer, session: SessionSettings(eraserOwnStrokesOnly: true))
        #expect(ownOnly.erase.ownStrokesOnly)
        #expect(SketchPermissions.shared(isHost: false, role: .drawer, session: nil).mayErase)
    }
}
