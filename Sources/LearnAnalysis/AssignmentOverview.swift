import Foundation
import LearnBasics
import LearnMaths
import LearnRecords

/// A teacher's view of one task: every pupil it is for, whether they have
/// done it and, for a maths set, how many answers were right at the first
/// try, how long it took and which were wrong; and, for the class, the
/// questions most of them got wrong. Built from the task, the class's
/// roster and the answers there are, on the teacher's laptop and in the
/// web gallery alike.
public struct AssignmentOverview: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var pupilID: AccountID
        public var name: String
        /// Nil: not done yet.
        public var answer: AssignmentAnswer?
        public var done: Bool { answer != nil }

        /// A maths answer's answers; empty for other work or none.
        public var mathsAnswers: [MathsAnswer] {
            if case .maths(let answers)? = answer?.work { return answers }
            return []
        }
        public var rightCount: Int { mathsAnswers.filter(\.right).count }
        public var wrongAnswers: [MathsAnswer] { mathsAnswers.filter { !$0.right } }
        public var seconds: Double { Double(mathsAnswers.reduce(Int64(0)) { $0 + $1.milliseconds }) / 1000 }
    }

    /// A question of the set and how many of those who answered it got it
    /// wrong at the first try.
    public struct Question: Sendable, Equatable {
        public var question: MathsQuestion
        public var wrong: Int
        public var answered: Int
    }

    public var rows: [Row]
    /// The questions at least one pupil got wrong, the most often wrong
    /// first (then in the set's order), at most `hardestShown`.
    public var hardest: [Question]
    public var doneCount: Int { rows.filter(\.done).count }

    public static let hardestShown = 5

    /// `pupils`: the class, in the order it is shown. Only those the task
    /// is for get a row; an answer of anyone else is left out.
    public init(task: AssignmentRecord, pupils: [(id: AccountID, name: String)], answers: [AccountID: AssignmentAnswer]) {
        rows = pupils.filter { task.isFor($0.id) }.map { Row(pupilID: $0.id, name: $0.name, answer: answers[$0.id]) }
        guard case .maths(let set) = task.task else {
            hardest = []
            return
        }
        var tally: [MathsQuestion: (wrong: Int, answered: Int)] = [:]
        for row in rows {
            for answer in row.mathsAnswers {
                var counted = tally[answer.question, default: (0, 0)]
                counted.answered += 1
                if !answer.right { counted.wrong += 1 }
                tally[answer.question] = counted
            }
        }
        var seen: Set<MathsQuestion> = []
        let inOrder = set.questions.filter { seen.insert($0).inserted }
        hardest = inOrder.compactMap { question -> Question? in
            guard let counted = tally[question], counted.wrong > 0 else { return nil }
            return Question(question: question, wrong: counted.wrong, answered: counted.answered)
        }
        .enumerated().sorted { a, b in a.element.wrong != b.element.wrong ? a.element.wrong > b.element.wrong : a.offset < b.offset }
        .prefix(Self.hardestShown).map(\.element)
    }
}
