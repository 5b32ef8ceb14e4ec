import Foundation
import Testing
@testable import LearnMaths

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
