import Foundation

/// The teacher's PIN on this machine, as the PIN screen uses it: a try is
/// checked away from the main thread (thousands of hash rounds) and
/// recorded in the device's set-up, so the wait after wrong tries
/// (`TeacherPINGate`) survives closing and starting the app again; a new
/// PIN is made away from the main thread too, and kept.
@MainActor
public struct TeacherUnlock {
    public let preferences: DevicePreferences
    public var now: @Sendable () -> Date

    public init(preferences: DevicePreferences, now: @escaping @Sendable () -> Date = Date.init) {
        self.preferences = preferences
        self.now = now
    }

    /// What a typed PIN opens. Without a PIN set, every try is wrong. A
    /// try while the gate waits is not checked at all. A try that cannot
    /// be recorded still answers: the teacher is not shut out by a full
    /// disk (`recordFailed` hears of it).
    public func check(_ pin: String, recordFailed: (PreferencesError) -> Void = { _ in }) async -> TeacherPINGate.Answer {
        guard let stored = preferences.device.pin else { return .wrong }
        if let seconds = (preferences.device.gate ?? TeacherPINGate()).waiting(now: now()) {
            return .wait(seconds: seconds)
        }
        let matches = await Task.detached { stored.matches(pin) }.value
        var gate = preferences.device.gate ?? TeacherPINGate()
        let answer = gate.check(matches: matches, now: now())
        do {
            try preferences.setPINGate(gate)
        } catch {
            recordFailed(error)
        }
        return answer
    }

    /// Keeps `pin` as the teacher's PIN; false when it is not 4–8 digits.
    public func choose(_ pin: String) async throws(PreferencesError) -> Bool {
        guard let made = await Task.detached(operation: { TeacherPIN.make(pin) }).value else { return false }
        try preferences.setTeacherPIN(made)
        return true
    }
}
