import Foundation
import Testing
@testable import LearnRecords
import LearnMaths

/// What an assignment and a pupil's answer may hold: checked on every
/// device and by the server before either is kept.
@Suite struct AssignmentRecordTests {
    static let classID = SchoolClassID(UUID())
    static let mia = AccountID(UUID())
    static let plus = ExerciseSet(name: "Plus", questions: [MathsQuestion(2, .plus, 3)])

    func assignment(_ task: AssignmentRecord.Task, pupils: [AccountID]? = nil, due: String? = nil) -> AssignmentRecord {
        AssignmentRecord(classId: Self.classID, pupils: pupils, task: task, due: due, at: 1)
    }

    @Test func aTeachersTasksAreKept() throws {
        for task: AssignmentRecord.Task in [.draw(prompt: "Dein Haus", groupSize: 1, guides: .none, timeLimitMinutes: 20),
                                            .draw(prompt: "Ein Zoo", groupSize: 4, guides: .squared, timeLimitMinutes: 0),
                                            .wordPost(poolId: UUID().lowercasedText, words: 10),
                                            .wordPost(poolId: "builtin.de", words: 8), .maths(set: Self.plus)] {
            let record = assignment(task, due: "2026-12-24")
            #expect(record.problem == nil, "\(task)")
            let again = try JSONDecoder().decode(AssignmentRecord.self, from: JSONEncoder().encode(record))
            #expect(again == record)
        }
    }

    @Test func whatCannotBeSetIsRefused() {
        #expect(assignment(.draw(prompt: "  ", groupSize: 1, guides: .none, timeLimitMinutes: 0)).problem != nil)
        #expect(assignment(.draw(prompt: String(repeating: "a", count: 301), groupSize: 1, guides: .none,
                                 timeLimitMinutes: 0)).problem != nil)
        #expect(assignment(.draw(prompt: "Haus", groupSize: 5, guides: .none, timeLimitMinutes: 0)).problem != nil)
        #expect(assignment(.draw(prompt: "Haus", groupSize: 1, guides: .none, timeLimitMinutes: 121)).problem != nil)
        #expect(assignment(.wordPost(poolId: "../../etc", words: 10)).problem != nil)
        #expect(assignment(.wordPost(poolId: UUID().lowercasedText, words: 0)).problem != nil)
        #expect(assignment(.maths(set: ExerciseSet(name: "", questions: []))).problem != nil)
        #expect(assignment(.maths(set: Self.plus), pupils: []).problem != nil)
        #expect(assignment(.maths(set: Self.plus), pupils: ["not-an-account"]).problem != nil)
        for day in ["2026-02-29", "2026-13-01", "26-12-24", "2026-12-24T10:00", "２０２６-12-24"] {
            #expect(assignment(.maths(set: Self.plus), due: day).problem != nil, "\(day)")
        }
        #expect(assignment(.maths(set: Self.plus), due: "2028-02-29").problem == nil)
    }

    @Test func anAssignmentForChosenPupilsIsOnlyTheirs() {
        let ole = AccountID(UUID())
        #expect(assignment(.maths(set: Self.plus), pupils: [Self.mia]).isFor(Self.mia))
        #expect(!assignment(.maths(set: Self.plus), pupils: [Self.mia]).isFor(ole))
        #expect(assignment(.maths(set: Self.plus)).isFor(ole))
    }

    @Test func aPupilsAnswerHasOneIdPerAssignment() {
        let task = UUID(), mia = UUID(), ole = UUID()
        #expect(AssignmentAnswer.id(of: task, pupil: mia) == AssignmentAnswer.id(of: task, pupil: mia))
        #expect(AssignmentAnswer.id(of: task, pupil: mia) != AssignmentAnswer.id(of: task, pupil: ole))
        #expect(AssignmentAnswer.id(of: task, pupil: mia) != AssignmentAnswer.id(of: UUID(), pupil: mia))
    }

    @Test func aCraftedAnswerIsRefused() {
        let question = MathsQuestion(2, .plus, 3)
        func answer(_ work: AssignmentAnswer.Work) -> AssignmentAnswer {
            AssignmentAnswer(assignmentId: UUID().lowercasedText, pupilId: Self.mia, work: work, at: 1)
        }
        #expect(answer(.maths(answers: [MathsAnswer(question: question, wrongTries: [4], milliseconds: 900)])).problem == nil)
        #expect(answer(.sketch(id: UUID())).problem == nil)
        #expect(answer(.maths(answers: Array(repeating: MathsAnswer(question: question, wrongTries: [], milliseconds: 1),
                                    count: 101))).problem != nil)
        #expect(answer(.maths(answers: [MathsAnswer(question: MathsQuestion(1, .minus, 2), wrongTries: [], milliseconds: 1)]))
            .problem != nil)
        #expect(answer(.maths(answers: [MathsAnswer(question: question, wrongTries: [1, 2, 3, 4, 6, 7], milliseconds: 1)]))
            .problem != nil)
        #expect(answer(.maths(answers: [MathsAnswer(question: question, wrongTries: [], milliseconds: -1)])).problem != nil)
        #expect(AssignmentAnswer(assignmentId: "x", pupilId: Self.mia, work: .sketch(id: UUID()), at: 1).problem != nil)
    }
}
