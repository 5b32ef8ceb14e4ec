import Foundation
import LearnModel
import Testing
@testable import TeamsketchCore

/// The "From your teacher" cards: only a pupil's own tasks, open ones
/// first by due day, done ones ticked, and only what she has not seen is
/// announced.
@Suite struct AssignmentBoardTests {
    static let mia = AccountID(UUID()), ole = AccountID(UUID())
    static let classID = SchoolClassID(UUID())

    static func task(_ task: AssignmentRecord.Task, pupils: [AccountID]? = nil, due: String? = nil, deleted: Bool = false,
                     at: Int64) -> AssignmentRecord {
        AssignmentRecord(classId: classID, pupils: pupils, task: task, due: due, deleted: deleted, at: at)
    }

    @Test func aPupilSeesHerTasksOpenOnesFirstBySoonestDay() {
        let house = UUID(), sums = UUID(), game = UUID(), olesOnly = UUID(), takenBack = UUID(), later = UUID()
        let plus = ExerciseSet(name: "Plus", questions: [MathsQuestion(1, .plus, 1)])
        let tasks: [UUID: AssignmentRecord] = [
            house: Self.task(.draw(prompt: "Dein Haus", groupSize: 1, guides: .none, timeLimitMinutes: 0), at: 1),
            sums: Self.task(.maths(set: plus), due: "2026-12-20", at: 2),
            game: Self.task(.wordPost(poolId: UUID().lowercasedText, words: 5), due: "2026-12-10", at: 3),
            olesOnly: Self.task(.maths(set: plus), pupils: [Self.ole], at: 4),
            takenBack: Self.task(.maths(set: plus), deleted: true, at: 5),
            later: Self.task(.draw(prompt: "Ein Baum", groupSize: 2, guides: .none, timeLimitMinutes: 0), at: 6),
        ]
        let cards = AssignmentBoard.cards(for: Self.mia, tasks: tasks, answered: [game])
        #expect(cards.map(\.id) == [sums, house, later, game])
        #expect(cards.map(\.kind) == [.maths, .draw, .draw, .wordPost])
        #expect(cards.map(\.done) == [false, false, false, true])
        #expect(cards.first?.title == "Plus" && cards[1].title == "Dein Haus" && cards.last?.title == nil)
        #expect(AssignmentBoard.cards(for: Self.ole, tasks: tasks, answered: []).map(\.id).contains(olesOnly))

        // Only the open ones she has not been told of are announced.
        #expect(AssignmentBoard.news(cards, seen: [house]).map(\.id) == [sums, later])
        #expect(AssignmentBoard.news(cards, seen: [house, sums, later]).isEmpty)
    }
}
