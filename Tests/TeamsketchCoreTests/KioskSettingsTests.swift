import Foundation
import LearnModel
import Testing
@testable import TeamsketchCore

/// The kiosk's files as an admin writes them, and what the settings mean.
@Suite struct KioskSettingsTests {
    @Test func anAdminsFileIsReadAndWhatCannotBeReadIsSaidByLine() {
        let (file, problems) = KioskConfigFile.parse("""
            # the corridor's touchscreen
            [kiosk]
            fullscreen = yes
            quit-needs-pin = On   # the PIN to leave
            activities = team-sketch
            idle-minutes = 10
            sounds = no
            idle-minutes = 999
            colour = blue
            just words
            """)
        #expect(file == KioskConfigFile(fullscreen: true, quitNeedsPIN: true, activities: [.teamSketch], idleMinutes: 10,
                                        sounds: false))
        #expect(problems == ["line 8: idle-minutes is 0 to 240", "line 9: colour is not a kiosk setting",
                             "line 10: not `key = value`"])
        #expect(KioskConfigFile.parse(String(repeating: "#", count: KioskConfigFile.maxBytes + 1)).problems
                == ["the file is larger than 64 KiB"])
        #expect(KioskConfigFile.parse("activities = team-sketch, chess").problems.count == 1)
    }

    @Test func theUsersFileWinsKeyByKeyAndRoundTrips() {
        let system = KioskConfigFile.parse("fullscreen = yes\nquit-needs-pin = yes\nidle-minutes = 5").file
        let user = KioskConfigFile.parse("idle-minutes = 0\nactivities = word-post").file
        let merged = system.overridden(by: user)
        #expect(merged.settings == KioskSettings(fullscreen: true, quitNeedsPIN: true, activities: [.wordPost], idleMinutes: 0))
        #expect(KioskConfigFile.parse(merged.text) == (merged, []))
        #expect(KioskConfigFile().settings == KioskSettings())
    }

    @Test func theStartScreenNeverEndsUpEmptyAndIdleMeansLeftAlone() {
        let classroom: Set<ClassSettingsRecord.Activity> = [.teamSketch]
        #expect(KioskSettings(activities: [.wordPost]).activities(classroom: classroom) == classroom)
        #expect(KioskSettings(activities: [.teamSketch]).activities(classroom: [.teamSketch, .wordPost]) == [.teamSketch])
        #expect(KioskSettings().activities(classroom: classroom) == classroom)

        let t0 = Date(timeIntervalSince1970: 1_790_000_000)
        let kiosk = KioskSettings(idleMinutes: 10)
        #expect(!kiosk.shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(599), atHome: false))
        #expect(kiosk.shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(600), atHome: false))
        #expect(!kiosk.shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(6000), atHome: true))
        #expect(!KioskSettings().shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(1e6), atHome: false))
        #expect(KioskSettings(idleMinutes: 10_000).idleMinutes == 240)
        #expect(kiosk.shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(3), atHome: false, limit: 3))
        #expect(!KioskSettings().shouldReturnHome(lastInput: t0, now: t0.addingTimeInterval(3), atHome: false, limit: 3))

        #expect(KioskSettings().mayClose(teacherUnlocked: false))
        #expect(!KioskSettings(quitNeedsPIN: true).mayClose(teacherUnlocked: false))
        #expect(KioskSettings(quitNeedsPIN: true).mayClose(teacherUnlocked: true))
    }
}

/// The kiosk in the settings every screen reads.
@MainActor @Suite struct KioskPreferencesTests {
    @Test func theMachinesFileNarrowsTheStartScreenAndFixesSoundsAndTheTeachersSwitchesWin() throws {
        let kiosk = KioskConfigClient.inMemory(system: "activities = word-post\nsounds = no\nquit-needs-pin = yes\nnonsense")
        let prefs = DevicePreferences(client: .inMemory(), overrides: SettingsOverrides(), kiosk: kiosk, userName: nil)
        #expect(prefs.settings.activities == [.wordPost] && !prefs.settings.soundsOn)
        #expect(!prefs.soundsOn(hostChoice: true), "the machine's choice comes before a lobby's")
        #expect(prefs.kiosk.quitNeedsPIN && !prefs.kiosk.fullscreen)
        #expect(prefs.kioskProblems == ["/etc/teamsketch/kiosk.conf: line 4: not `key = value`"])

        try prefs.setKiosk(KioskConfigFile(fullscreen: true, idleMinutes: 5))
        #expect(prefs.kiosk == KioskSettings(fullscreen: true, quitNeedsPIN: true, activities: [.wordPost], idleMinutes: 5,
                                             sounds: false))
        #expect(kiosk.loadUser().map { KioskConfigFile.parse($0).file } == KioskConfigFile(fullscreen: true, idleMinutes: 5))
        // The environment still comes first for one run.
        let loud = DevicePreferences(client: .inMemory(), overrides: SettingsOverrides(soundsOn: true), kiosk: kiosk,
                                     userName: nil)
        #expect(loud.soundsOn() && loud.settings.soundsOn)
    }

    /// The teacher's switch cannot lock a computer that has no PIN: nobody
    /// could close it or open the teacher's window there afterwards.
    @Test func lockingTheKioskWantsAPINFirst() {
        #expect(KioskConfigFile(quitNeedsPIN: true).locksWithoutPIN(hasPIN: false))
        #expect(!KioskConfigFile(quitNeedsPIN: true).locksWithoutPIN(hasPIN: true))
        #expect(!KioskConfigFile(quitNeedsPIN: false).locksWithoutPIN(hasPIN: false))
        #expect(!KioskConfigFile(fullscreen: true).locksWithoutPIN(hasPIN: false))
    }
}
