import Foundation

/// The sign between the two numbers of a question.
public enum MathsOperation: String, Codable, Hashable, Sendable, CaseIterable {
    case plus = "+", minus = "-", times = "*"

    /// How the sign is printed for a child (− and ×, not - and *).
    public var sign: String {
        switch self {
        case .plus: "+"
        case .minus: "−"
        case .times: "×"
        }
    }
}

/// One question of the maths game: `left op right = result`, with one of
/// the three numbers left out for the pupil to find. "7 + 5 = ?" leaves
/// out the result; "7 + ? = 12" the right number (a missing number).
public struct MathsQuestion: Codable, Hashable, Sendable {
    public enum Blank: String, Codable, Hashable, Sendable { case result, left, right }

    public var left: Int
    public var operation: MathsOperation
    public var right: Int
    public var blank: Blank

    public init(_ left: Int, _ operation: MathsOperation, _ right: Int, blank: Blank = .result) {
        self.left = left; self.operation = operation; self.right = right; self.blank = blank
    }

    /// `left op right`, computed only for numbers `problem` accepts.
    public var result: Int {
        switch operation {
        case .plus: left + right
        case .minus: left - right
        case .times: left * right
        }
    }

    /// The number the pupil must find.
    public var answer: Int {
        switch blank {
        case .result: result
        case .left: left
        case .right: right
        }
    }

    /// As a child reads it, the missing number as "?": "7 + 5 = ?".
    public var text: String {
        func shown(_ number: Int, _ part: Blank) -> String { blank == part ? "?" : String(number) }
        return "\(shown(left, .left)) \(operation.sign) \(shown(right, .right)) = \(shown(result, .result))"
    }

    /// Why the question cannot be asked (numbers out of range, a result
    /// below zero), or nil. Checked before `result` is computed, so a
    /// crafted question cannot overflow.
    public var problem: String? {
        let range = MathsLimits.numbers
        guard range.contains(left), range.contains(right) else {
            return "a question's numbers are 0 to \(range.upperBound)"
        }
        switch operation {
        case .plus: guard left + right <= MathsLimits.maxResult else { return "a sum is at most \(MathsLimits.maxResult)" }
        case .minus: guard left >= right else { return "a difference is never below zero" }
        case .times: guard left * right <= MathsLimits.maxResult else {
            return "a product is at most \(MathsLimits.maxResult)"
        }
        }
        return nil
    }
}

/// What a question or a set may hold: numbers a primary school uses, and
/// sets a lesson can play.
public enum MathsLimits {
    public static let numbers = 0...1000
    public static let maxResult = 10_000
    /// Questions in one set: a lesson's worth.
    public static let maxQuestions = 100
    public static let maxNameCharacters = 100
    /// A set as JSON on the wire or in a file, before it is read.
    public static let maxSetBytes = 64 * 1024
}
