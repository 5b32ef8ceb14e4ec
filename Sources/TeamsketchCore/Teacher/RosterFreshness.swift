import Foundation

/// When the teacher's app asks the server again who the pupils of the
/// teacher's classes are.
///
/// A grade goes under a pupil's account only if the roster knows the
/// pupil; one given under a name alone stays on the laptop (the server
/// knows no such pupil). So a roster that is out of date loses grades to
/// the laptop: a pupil added a moment ago in the teacher's own window, or
/// on another computer, must be known by the time their work is graded.
/// Asking on every grade would make grading wait on the network, so:
/// - an answer is kept for `keptFor`;
/// - what the teacher changes in their own classes forgets it at once;
/// - a name the roster does not know has it asked again, unless the
///   answer is younger than `unknownNameAfter`;
/// - a failed question is asked again after `failedAfter`, not at every
///   grade, so a laptop without the server grades without waiting.
public struct RosterFreshness: Sendable, Equatable {
    public static let keptFor: Double = 300
    public static let unknownNameAfter: Double = 10
    public static let failedAfter: Double = 60

    public enum Answer: Sendable, Equatable {
        case pupils(at: Date)
        case failed(at: Date)
    }

    /// The last answer for the current sign-in; nil when there is none, or
    /// it was forgotten.
    public private(set) var last: Answer?

    public init(last: Answer? = nil) { self.last = last }

    /// Whether to ask the server now. `unknownName`: the roster at hand
    /// does not know the pupil being graded.
    public func mustAsk(now: Date, unknownName: Bool = false) -> Bool {
        switch last {
        case nil:
            return true
        case .failed(let at):
            return !(0..<Self.failedAfter).contains(now.timeIntervalSince(at))
        case .pupils(let at):
            let age = now.timeIntervalSince(at)
            // A clock set back makes the answer look older than it is: ask.
            if age < 0 || age >= Self.keptFor { return true }
            return unknownName && age >= Self.unknownNameAfter
        }
    }

    public mutating func answered(at now: Date) { last = .pupils(at: now) }
    public mutating func failed(at now: Date) { last = .failed(at: now) }
    /// The teacher changed a class or its pupils.
    public mutating func forget() { last = nil }
}
