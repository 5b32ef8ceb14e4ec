/// The time limit a child sets with two big buttons, − and +, instead of
/// typing: five minutes a press, landing on whole fives (a limit of 7
/// goes up to 10 and down to 5), never past the ends of the range the
/// class allows (0 meaning no limit, when there is no maximum).
public struct TimeLimitSteps: Hashable, Sendable {
    public static let step = 5
    public let range: ClosedRange<Int>

    /// The range a new sketch offers under these settings: up to the
    /// class's maximum and then at least a minute, else 0 (no limit) to
    /// the longest limit a sketch may have.
    public init(settings: ClassroomSettings) {
        let all = ClassroomSettings.timeLimitRange
        range = settings.maxTimeLimitMinutes > 0 ? 1...settings.maxTimeLimitMinutes : all
    }

    public init(range: ClosedRange<Int>) { self.range = range }

    public func clamped(_ minutes: Int) -> Int { min(max(minutes, range.lowerBound), range.upperBound) }

    public func more(than minutes: Int) -> Int {
        let m = clamped(minutes)
        return clamped((m / Self.step + 1) * Self.step)
    }

    public func fewer(than minutes: Int) -> Int {
        let m = clamped(minutes)
        return clamped(((m + Self.step - 1) / Self.step - 1) * Self.step)
    }

    public func canAddMore(to minutes: Int) -> Bool { clamped(minutes) < range.upperBound }
    public func canTakeAway(from minutes: Int) -> Bool { clamped(minutes) > range.lowerBound }
}
