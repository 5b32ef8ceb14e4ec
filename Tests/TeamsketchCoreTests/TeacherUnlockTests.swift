import Foundation
import TeamsketchCore
import Testing

@MainActor
@Suite struct TeacherUnlockTests {
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_790_000_000)
    }

    func unlock(_ prefs: DevicePreferences, _ clock: Clock) -> TeacherUnlock {
        TeacherUnlock(preferences: prefs, now: { clock.now })
    }

    /// `classroom`: the device's set-up as kept between runs.
    func preferences(_ classroom: DeviceClassroomClient = .inMemory()) -> DevicePreferences {
        DevicePreferences(client: .inMemory(), classroom: classroom, overrides: SettingsOverrides(), userName: nil)
    }

    @Test func withoutAPINEveryTryIsWrong() async {
        #expect(await unlock(preferences(), Clock()).check("1234") == .wrong)
    }

    @Test func aChosenPINOpensAndOnlyDigitsAreTaken() async throws {
        let prefs = preferences(), door = unlock(prefs, Clock())
        #expect(try await door.choose("12ab") == false)
        #expect(prefs.device.pin == nil)
        #expect(try await door.choose("2468") == true)
        #expect(await door.check("2468") == .open)
        #expect(await door.check("1357") == .wrong)
    }

    @Test func wrongTriesAreRecordedSoTheWaitSurvivesARestart() async throws {
        let kept = DeviceClassroomClient.inMemory()
        let prefs = preferences(kept), clock = Clock()
        _ = try await unlock(prefs, clock).choose("2468")
        for _ in 1..<TeacherPINGate.freeTries { #expect(await unlock(prefs, clock).check("0000") == .wrong) }
        guard case .wait(let seconds) = await unlock(prefs, clock).check("0000") else {
            Issue.record("the third wrong try did not make the next one wait")
            return
        }
        // A new run reads what the device kept: the right PIN waits too.
        let restarted = preferences(kept)
        #expect(await unlock(restarted, clock).check("2468") == .wait(seconds: seconds))
        clock.now += Double(seconds)
        #expect(await unlock(restarted, clock).check("2468") == .open)
    }
}
