import Foundation
import Testing
@testable import LearnMaths
import LearnRecords

/// One pupil's maths game without a window: a right key plays the next
/// note of the tune and asks the next question; a wrong one a soft sound,
/// and it stays down; the answers say what was pressed and how long it took.
@Suite struct MathsGameTests {
    static let set = ExerciseSet(name: "Plus", questions: [MathsQuestion(7, .plus, 5), MathsQuestion(3, .plus, 4),
                                                           MathsQuestion(10, .minus, 2)])
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func rightKeysPlayTheTuneAndWrongOnesStayDown() {
        var game = MathsGame(set: Self.set, seed: 9, at: Self.t0)
        #expect(game.question?.text == "7 + 5 = ?" && game.keys.contains(12))
        #expect(game.press(12, at: Self.t0.addingTimeInterval(2)) == [.rightNote(MathsTune.notes[0])])
        #expect(game.question?.text == "3 + 4 = ?")
        #expect(game.press(8, at: Self.t0.addingTimeInterval(3)) == [.wrongSound])
        #expect(game.press(8, at: Self.t0.addingTimeInterval(3.5)) == [], "a key already down says nothing again")
        #expect(game.press(6, at: Self.t0.addingTimeInterval(4)) == [.wrongSound])
        #expect(game.pressedWrong == [8, 6])
        #expect(game.press(7, at: Self.t0.addingTimeInterval(5)) == [.rightNote(MathsTune.notes[1])])
        #expect(game.pressedWrong.isEmpty)
        let last = game.press(8, at: Self.t0.addingTimeInterval(6))
        let answers = [MathsAnswer(question: Self.set.questions[0], wrongTries: [], milliseconds: 2000),
                       MathsAnswer(question: Self.set.questions[1], wrongTries: [8, 6], milliseconds: 3000),
                       MathsAnswer(question: Self.set.questions[2], wrongTries: [], milliseconds: 1000)]
        #expect(last == [.rightNote(MathsTune.notes[2]), .finished(answers)])
        #expect(game.isFinished && game.keys.isEmpty)
        #expect(answers.map(\.right) == [true, false, true])
        #expect(game.press(8, at: Self.t0.addingTimeInterval(7)) == [], "nothing after the end")
    }

    /// Typing number after number keeps no more wrong tries than there are
    /// wrong keys: the answer stays one a teacher's server takes.
    @Test func endlessWrongTypingKeepsAnAnswerThatCanBeSent() {
        var game = MathsGame(set: Self.set, seed: 9, at: Self.t0)
        for wrong in 20..<40 { #expect(game.press(wrong, at: Self.t0) == [.wrongSound]) }
        #expect(game.pressedWrong.count == PianoKeys.count - 1)
        _ = game.press(12, at: Self.t0)
        _ = game.press(7, at: Self.t0)
        guard case .finished(let answers)? = game.press(8, at: Self.t0).last else {
            Issue.record("not finished")
            return
        }
        let answer = AssignmentAnswer(assignmentId: UUID().lowercasedText, pupilId: AccountID(UUID()),
                                      work: .maths(answers: answers), at: 1)
        #expect(answer.problem == nil)
    }

    @Test func everyPupilOfAnAssignmentGetsTheSameKeys() {
        let a = MathsGame(set: Self.set, seed: 77, at: Self.t0)
        let b = MathsGame(set: Self.set, seed: 77, at: Self.t0.addingTimeInterval(100))
        #expect(a.keys == b.keys)
    }

    @Test func theTuneStartsOverAfterItsEnd() {
        #expect(MathsTune.note(MathsTune.notes.count) == MathsTune.notes[0])
        #expect(MathsTune.note(-1) == MathsTune.notes.last)
    }
}
