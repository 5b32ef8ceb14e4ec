import Foundation

/// Guards the teacher's window on a machine without a school server: the
/// right PIN opens it; after three wrong tries the next try waits, longer
/// each time, so a pupil tapping numbers cannot get in during a lesson.
public struct TeacherPINGate: Sendable {
    public enum Answer: Equatable, Sendable {
        case open
        case wrong
        /// Tried too often; try again after this many seconds.
        case wait(seconds: Int)
    }

    public static let freeTries = 3
    private var wrongTries = 0
    private var lockedUntil: Date?

    public init() {}

    public mutating func check(_ entered: String, against pin: TeacherPIN, now: Date) -> Answer {
        if let until = lockedUntil, until > now {
            return .wait(seconds: Int(until.timeIntervalSince(now).rounded(.up)))
        }
        if pin.matches(entered) {
            wrongTries = 0
            lockedUntil = nil
            return .open
        }
        wrongTries += 1
        guard wrongTries >= Self.freeTries else { return .wrong }
        // 30 s, then 60, 120, ... at most 15 minutes.
        let seconds = min(30 << min(wrongTries - Self.freeTries, 5), 15 * 60)
        lockedUntil = now.addingTimeInterval(Double(seconds))
        return .wait(seconds: seconds)
    }
}
