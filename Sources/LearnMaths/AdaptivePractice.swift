import Foundation

/// Endless practice follows the pupil: three right answers in a row take
/// her a step up the ladder, two wrong in a row a step down, and each step
/// starts the count again. The ladder goes from adding within 10 to the
/// whole times tables and missing numbers within 100.
public struct AdaptivePractice: Codable, Hashable, Sendable {
    public static let ladder: [ExerciseRange] = [
        .addition(within: 10), .subtraction(within: 10), .addAndSubtract(within: 10),
        .addition(within: 20), .addAndSubtract(within: 20), .missingNumber(within: 20),
        .times(tables: [2, 5, 10]), .addAndSubtract(within: 100), .times(tables: Array(1...10)),
        .missingNumber(within: 100),
    ]
    public static let rightToStepUp = 3
    public static let wrongToStepDown = 2

    public enum Step: Hashable, Sendable { case up, down }

    public private(set) var level: Int
    public private(set) var rightInARow = 0
    public private(set) var wrongInARow = 0

    /// `level` is clamped to the ladder (a stored level from a longer ladder).
    public init(level: Int = 0) {
        self.level = min(max(level, 0), Self.ladder.count - 1)
    }

    public var range: ExerciseRange { Self.ladder[level] }

    /// Counts one answer; the step it caused, if any.
    @discardableResult
    public mutating func record(right: Bool) -> Step? {
        if right {
            rightInARow += 1; wrongInARow = 0
            guard rightInARow >= Self.rightToStepUp else { return nil }
            rightInARow = 0
            guard level < Self.ladder.count - 1 else { return nil }
            level += 1
            return .up
        }
        wrongInARow += 1; rightInARow = 0
        guard wrongInARow >= Self.wrongToStepDown else { return nil }
        wrongInARow = 0
        guard level > 0 else { return nil }
        level -= 1
        return .down
    }
}
