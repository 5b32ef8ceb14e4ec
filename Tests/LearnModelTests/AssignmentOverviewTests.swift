import Foundation
import Testing
@testable import LearnAnalysis
import LearnMaths
import LearnRecords

/// The teacher's view of a task: who has done it, who not yet, each
/// pupil's right answers, and the questions most of the class got wrong.
@Suite struct AssignmentOverviewTests {
    static let (mia, ole, eve, ben) = (AccountID(UUID()), AccountID(UUID()), AccountID(UUID()), AccountID(UUID()))
    static let pupils = [(id: mia, name: "Mia"), (id: ole, name: "Ole"), (id: eve, name: "Eve"), (id: ben, name: "Ben")]
    static let q = [MathsQuestion(7, .plus, 5), MathsQuestion(9, .minus, 3), MathsQuestion(6, .plus, 6)]
    static let set = ExerciseSet(name: "Plus", questions: q)
    static let task = UUID()

    static func answer(_ pupil: AccountID, wrong: Set<Int>) -> AssignmentAnswer {
        let answers = q.enumerated().map { n, question in
            MathsAnswer(question: question, wrongTries: wrong.contains(n) ? [question.answer + 1] : [], milliseconds: 2000)
        }
        return AssignmentAnswer(assignmentId: task.lowercasedText, pupilId: pupil, work: .maths(answers: answers), at: 1)
    }

    @Test func whoHasDoneItAndWhatMostGotWrong() {
        let record = AssignmentRecord(classId: SchoolClassID(UUID()), task: .maths(set: Self.set), at: 1)
        let overview = AssignmentOverview(task: record, pupils: Self.pupils,
                                          answers: [Self.mia: Self.answer(Self.mia, wrong: [1]),
                                                    Self.ole: Self.answer(Self.ole, wrong: [1, 2]),
                                                    Self.eve: Self.answer(Self.eve, wrong: [])])
        #expect(overview.rows.map(\.name) == ["Mia", "Ole", "Eve", "Ben"])
        #expect(overview.rows.map(\.done) == [true, true, true, false] && overview.doneCount == 3)
        #expect(overview.rows.map(\.rightCount) == [2, 1, 3, 0])
        #expect(overview.rows[1].wrongAnswers.map(\.question) == [Self.q[1], Self.q[2]])
        #expect(overview.rows[0].seconds == 6)
        #expect(overview.hardest == [.init(question: Self.q[1], wrong: 2, answered: 3),
                                     .init(question: Self.q[2], wrong: 1, answered: 3)])
    }

    @Test func aTaskForChosenPupilsListsOnlyThem() {
        let record = AssignmentRecord(classId: SchoolClassID(UUID()), pupils: [Self.ole, Self.ben],
                                      task: .draw(prompt: "Haus", groupSize: 1, guides: .none, timeLimitMinutes: 0), at: 1)
        let drawn = AssignmentAnswer(assignmentId: Self.task.lowercasedText, pupilId: Self.ole, work: .sketch(id: UUID()), at: 1)
        let stray = AssignmentAnswer(assignmentId: Self.task.lowercasedText, pupilId: Self.mia, work: .sketch(id: UUID()), at: 1)
        let overview = AssignmentOverview(task: record, pupils: Self.pupils, answers: [Self.ole: drawn, Self.mia: stray])
        #expect(overview.rows.map(\.name) == ["Ole", "Ben"])
        #expect(overview.rows.map(\.done) == [true, false])
        #expect(overview.hardest.isEmpty && overview.rows[0].mathsAnswers.isEmpty)
    }
}
