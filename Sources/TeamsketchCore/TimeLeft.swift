import Foundation
import LearnModel

/// Whole seconds until a sketch's time limit, for the clock on screen.
/// The deadline comes from the sketch's creation date, which came from a file
/// or a peer: a date that makes no sense gives "no time left" (never more than
/// the longest limit), and no conversion can trap.
public enum TimeLeft {
    /// The longest limit a sketch may have, in seconds.
    public static let longest = SketchLimits.timeLimitMinutes.upperBound * 60

    public static func seconds(until deadline: Date, now: Date = Date()) -> Int {
        let left = deadline.timeIntervalSince(now).rounded(.up)
        guard left.isFinite, left > 0 else { return 0 }
        return Int(min(left, Double(longest)))
    }
}
