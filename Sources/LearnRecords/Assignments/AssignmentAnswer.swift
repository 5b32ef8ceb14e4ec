import Foundation
import LearnBasics
import LearnMaths

/// A pupil's answer to an assignment: the sketch she drew, the game she
/// played, or her maths answers. One per pupil and assignment, kept under
/// `AssignmentAnswer.id(of:pupil:)`; doing it again replaces it. It is the
/// pupil's own: only she sends it, for an assignment that is hers.
public struct AssignmentAnswer: Codable, Hashable, Sendable {
    public enum Work: Codable, Hashable, Sendable {
        case sketch(id: UUID)
        case wordPost(game: UUID)
        case maths(answers: [MathsAnswer])
    }

    public var assignmentId: String
    public var pupilId: AccountID
    public var work: Work
    public var at: Int64

    public init(assignmentId: String, pupilId: AccountID, work: Work, at: Int64) {
        self.assignmentId = assignmentId; self.pupilId = pupilId; self.work = work; self.at = at
    }

    /// The id a pupil's answer is kept under: worked out from the
    /// assignment and the pupil, so every device names it alike and a
    /// classmate cannot take it.
    public static func id(of assignment: UUID, pupil: UUID) -> UUID {
        SketchOpIdentity.name(assignment, "answer:\(pupil.lowercasedText)")
    }

    /// Why it cannot be kept, or nil.
    public var problem: String? {
        guard UUID(text: assignmentId) != nil, pupilId.uuid != nil else { return "an answer names its assignment and pupil" }
        if case .maths(let answers) = work {
            guard answers.count <= MathsLimits.maxQuestions else {
                return "an answer has at most \(MathsLimits.maxQuestions) maths answers"
            }
            for answer in answers {
                if let problem = answer.question.problem { return problem }
                guard answer.wrongTries.count < PianoKeys.count, answer.milliseconds >= 0,
                      answer.milliseconds <= 86_400_000 else { return "a maths answer is out of range" }
            }
        }
        return nil
    }
}
