import Foundation
import LearnBasics

/// The kinds of question a set can be made of, with their range.
public enum ExerciseRange: Codable, Hashable, Sendable {
    /// a + b, the sum at most `within`.
    case addition(within: Int)
    /// a − b, a at most `within`, never below zero.
    case subtraction(within: Int)
    /// Additions and subtractions mixed.
    case addAndSubtract(within: Int)
    /// Questions of these times tables: t × k and k × t, k from 1 to 10.
    case times(tables: [Int])
    /// An addition or subtraction with one of its two numbers left out:
    /// "7 + ? = 12".
    case missingNumber(within: Int)

    public static let withinRange = 5...1000
    public static let tables = 1...12
}

/// How a teacher has a set made: its range, how many questions, and a seed,
/// so the set is the same on every laptop and at every replay.
public struct ExerciseRecipe: Codable, Hashable, Sendable {
    public var range: ExerciseRange
    public var count: Int
    public var seed: UInt64

    public init(range: ExerciseRange, count: Int, seed: UInt64) {
        self.range = range; self.count = count; self.seed = seed
    }

    public var problem: String? {
        guard (1...MathsLimits.maxQuestions).contains(count) else {
            return "a set has 1 to \(MathsLimits.maxQuestions) questions"
        }
        switch range {
        case .addition(let within), .subtraction(let within), .addAndSubtract(let within), .missingNumber(let within):
            guard ExerciseRange.withinRange.contains(within) else {
                return "the numbers go up to between \(ExerciseRange.withinRange.lowerBound) and \(ExerciseRange.withinRange.upperBound)"
            }
        case .times(let tables):
            guard !tables.isEmpty, tables.count <= ExerciseRange.tables.count,
                  tables.allSatisfy(ExerciseRange.tables.contains) else {
                return "times tables are 1 to \(ExerciseRange.tables.upperBound)"
            }
        }
        return nil
    }
}

/// Makes the questions of a recipe. The same recipe gives the same set on
/// every machine (`SplitMix64`, not the system's generator); a question is
/// asked again only when a few dozen tries found no other.
public enum ExerciseGenerator {
    public static func make(_ recipe: ExerciseRecipe, name: String = "") -> ExerciseSet? {
        guard recipe.problem == nil else { return nil }
        var rng = SplitMix64(seed: recipe.seed)
        var questions: [MathsQuestion] = []
        var asked: Set<MathsQuestion> = []
        for _ in 0..<recipe.count {
            // A few tries for a question not yet asked: a small range runs
            // out, and a repeat is better than a loop without end.
            var question = one(recipe.range, &rng)
            for _ in 0..<48 where asked.contains(question) || question == questions.last {
                question = one(recipe.range, &rng)
            }
            // Every question of the range asked: any but the one just asked.
            for _ in 0..<48 where question == questions.last { question = one(recipe.range, &rng) }
            asked.insert(question)
            questions.append(question)
        }
        return ExerciseSet(name: name, questions: questions)
    }

    /// A number in `range`, both ends included.
    static func number(_ range: ClosedRange<Int>, _ rng: inout SplitMix64) -> Int {
        range.lowerBound + rng.nextInt(below: range.count)
    }

    static func one(_ range: ExerciseRange, _ rng: inout SplitMix64) -> MathsQuestion {
        switch range {
        case .addition(let within):
            let sum = number(2...within, &rng)
            let left = number(1...(sum - 1), &rng)
            return MathsQuestion(left, .plus, sum - left)
        case .subtraction(let within):
            let left = number(2...within, &rng)
            return MathsQuestion(left, .minus, number(1...left, &rng))
        case .addAndSubtract(let within):
            return one(rng.nextInt(below: 2) == 0 ? .addition(within: within) : .subtraction(within: within), &rng)
        case .times(let tables):
            let table = tables[rng.nextInt(below: tables.count)]
            let other = number(1...10, &rng)
            return rng.nextInt(below: 2) == 0 ? MathsQuestion(table, .times, other) : MathsQuestion(other, .times, table)
        case .missingNumber(let within):
            var question = one(.addAndSubtract(within: within), &rng)
            question.blank = rng.nextInt(below: 2) == 0 ? .left : .right
            return question
        }
    }
}
