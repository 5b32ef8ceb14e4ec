import Foundation

/// Guards the teacher's window on a machine: the right PIN opens it; after
/// three wrong tries the next try waits, longer each time, so a pupil
/// tapping numbers cannot get in during a lesson. Kept with the device's
/// set-up, so closing and starting the app again does not reset it.
public struct TeacherPINGate: Codable, Equatable, Sendable {
    public enum Answer: Equatable, Sendable {
        case open
        case wrong
        /// Tried too often; try again after this many seconds.
        case wait(seconds: Int)
    }

    public static let freeTries = 3
    /// The longest wait; also what a wait is cut to when the clock was set
    /// back (a lock far in the future would shut the teacher out for hours).
    public static let longestWait = 15 * 60
    private var wrongTries = 0
    private var lockedUntil: Date?

    public init() {}

    /// Seconds to wait before the next try, or nil when one may be made.
    public func waiting(now: Date) -> Int? {
        guard let until = lockedUntil, until > now else { return nil }
        return min(Int(until.timeIntervalSince(now).rounded(.up)), Self.longestWait)
    }

    /// Records a try whose PIN did or did not match (worked out off the
    /// main thread: it takes thousands of hash rounds).
    public mutating func check(matches: Bool, now: Date) -> Answer {
        if let seconds = waiting(now: now) {
            lockedUntil = now.addingTimeInterval(Double(seconds))
            return .wait(seconds: seconds)
        }
        if matches {
            wrongTries = 0
            lockedUntil = nil
            return .open
        }
        wrongTries += 1
        guard wrongTries >= Self.freeTries else { return .wrong }
        // 30 s, then 60, 120, ... at most 15 minutes.
        let seconds = min(30 << min(wrongTries - Self.freeTries, 5), Self.longestWait)
        lockedUntil = now.addingTimeInterval(Double(seconds))
        return .wait(seconds: seconds)
    }

    public mutating func check(_ entered: String, against pin: TeacherPIN, now: Date) -> Answer {
        check(matches: pin.matches(entered), now: now)
    }
}
