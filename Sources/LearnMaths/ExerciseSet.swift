import Foundation

/// The questions of one maths exercise, in the order they are asked: the
/// teacher's own, or made by `ExerciseGenerator` from a range and a seed
/// (so every pupil of an assignment gets the same set).
public struct ExerciseSet: Codable, Hashable, Sendable {
    public var name: String
    public var questions: [MathsQuestion]

    public init(name: String, questions: [MathsQuestion]) {
        self.name = name; self.questions = questions
    }

    /// Why the set cannot be played (empty, too long, a bad question), or nil.
    public var problem: String? {
        guard !questions.isEmpty else { return "an exercise set has at least one question" }
        guard questions.count <= MathsLimits.maxQuestions else {
            return "an exercise set has at most \(MathsLimits.maxQuestions) questions"
        }
        guard name.count <= MathsLimits.maxNameCharacters else {
            return "an exercise set's name is at most \(MathsLimits.maxNameCharacters) characters"
        }
        for (n, question) in questions.enumerated() {
            if let problem = question.problem { return "question \(n + 1): \(problem)" }
        }
        return nil
    }

    /// A set from JSON a file or another device sent: its size is checked
    /// before it is decoded, its questions after.
    public static func decode(_ data: Data) throws(ExerciseSetError) -> ExerciseSet {
        guard data.count <= MathsLimits.maxSetBytes else { throw .tooLarge(limit: MathsLimits.maxSetBytes) }
        let set: ExerciseSet
        do { set = try JSONDecoder().decode(ExerciseSet.self, from: data) } catch { throw .unreadable }
        if let problem = set.problem { throw .invalid(problem) }
        return set
    }
}

public enum ExerciseSetError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case unreadable
    case invalid(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "an exercise set is at most \(limit / 1024) KiB"
        case .unreadable: "this is not an exercise set"
        case .invalid(let problem): problem
        }
    }
}
