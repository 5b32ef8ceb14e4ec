import Foundation
import Testing
@testable import LearnMaths

/// The maths sets a teacher has made from a range: the same seed gives
/// the same set, every question stays in its range, and no result is
/// below zero.
@Suite struct ExerciseGeneratorTests {
    static let ranges: [ExerciseRange] = [.addition(within: 10), .addition(within: 20), .addition(within: 100),
                                          .subtraction(within: 10), .subtraction(within: 100),
                                          .addAndSubtract(within: 20), .times(tables: [2, 5, 10]),
                                          .times(tables: [7]), .missingNumber(within: 20), .missingNumber(within: 100)]

    @Test(arguments: ranges)
    func aSeedGivesTheSameSetEveryTime(_ range: ExerciseRange) throws {
        let recipe = ExerciseRecipe(range: range, count: 20, seed: 42)
        let first = try #require(ExerciseGenerator.make(recipe))
        #expect(ExerciseGenerator.make(recipe) == first)
        #expect(first.questions.count == 20)
        let other = try #require(ExerciseGenerator.make(ExerciseRecipe(range: range, count: 20, seed: 43)))
        #expect(other != first, "another seed, another set")
        #expect(first.problem == nil)
    }

    @Test(arguments: ranges)
    func everyQuestionStaysInItsRange(_ range: ExerciseRange) throws {
        for seed in UInt64(0)..<50 {
            let set = try #require(ExerciseGenerator.make(ExerciseRecipe(range: range, count: 30, seed: seed)))
            for question in set.questions {
                #expect(question.problem == nil)
                #expect(question.result >= 0 && question.left >= 0 && question.right >= 0, "\(question.text)")
                switch range {
                case .addition(let within):
                    #expect(question.operation == .plus && question.result <= within && question.blank == .result)
                case .subtraction(let within):
                    #expect(question.operation == .minus && question.left <= within)
                case .addAndSubtract(let within):
                    #expect(question.operation != .times)
                    #expect(max(question.left, question.result) <= within)
                case .times(let tables):
                    #expect(question.operation == .times)
                    #expect(tables.contains(question.left) || tables.contains(question.right))
                    #expect((1...10).contains(question.left) && (1...10).contains(question.right))
                case .missingNumber(let within):
                    #expect(question.blank != .result && max(question.left, question.result) <= within)
                }
            }
            // Not the same question twice in a row.
            #expect(zip(set.questions, set.questions.dropFirst()).allSatisfy { $0 != $1 })
        }
    }

    @Test func aSetAsksEachQuestionOnceWhileTheRangeHasMore() throws {
        let set = try #require(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 100), count: 50, seed: 7)))
        #expect(Set(set.questions).count == 50)
    }

    @Test func aBadRecipeMakesNoSet() {
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 10), count: 0, seed: 1)) == nil)
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 10), count: 101, seed: 1)) == nil)
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 4), count: 5, seed: 1)) == nil)
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 1_000_000), count: 5, seed: 1)) == nil)
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .times(tables: []), count: 5, seed: 1)) == nil)
        #expect(ExerciseGenerator.make(ExerciseRecipe(range: .times(tables: [13]), count: 5, seed: 1)) == nil)
        #expect(ExerciseRecipe(range: .times(tables: Array(repeating: 2, count: 13)), count: 5, seed: 1).problem != nil)
    }

    @Test func questionsReadAsAChildReadsThem() {
        #expect(MathsQuestion(7, .plus, 5).text == "7 + 5 = ?")
        #expect(MathsQuestion(12, .minus, 5, blank: .right).text == "12 − ? = 7")
        #expect(MathsQuestion(3, .times, 4, blank: .left).text == "? × 4 = 12")
        #expect(MathsQuestion(3, .times, 4, blank: .left).answer == 3)
    }

    /// A set someone wrote by hand, or crafted: checked before it is played.
    @Test func aCraftedSetIsRefusedWithAReason() throws {
        #expect(ExerciseSet(name: "", questions: []).problem != nil)
        #expect(ExerciseSet(name: "x", questions: [MathsQuestion(3, .minus, 5)]).problem?.contains("below zero") == true)
        #expect(ExerciseSet(name: "x", questions: [MathsQuestion(Int.max, .plus, 1)]).problem != nil)
        #expect(ExerciseSet(name: "x", questions: [MathsQuestion(1000, .times, 1000)]).problem != nil)
        #expect(ExerciseSet(name: "x", questions: Array(repeating: MathsQuestion(1, .plus, 1), count: 101)).problem != nil)
        #expect(throws: ExerciseSetError.tooLarge(limit: MathsLimits.maxSetBytes)) {
            try ExerciseSet.decode(Data(repeating: 32, count: MathsLimits.maxSetBytes + 1))
        }
        #expect(throws: ExerciseSetError.unreadable) { try ExerciseSet.decode(Data("{\"name\": 3}".utf8)) }
        let overflow = Data(#"{"name":"x","questions":[{"left":9223372036854775807,"operation":"*","right":2,"blank":"result"}]}"#.utf8)
        #expect(throws: ExerciseSetError.self) { try ExerciseSet.decode(overflow) }
        let fine = try JSONEncoder().encode(ExerciseSet(name: "Plus", questions: [MathsQuestion(2, .plus, 2)]))
        #expect(try ExerciseSet.decode(fine).questions.first?.answer == 4)
    }
}

@Suite struct PianoKeysTests {
    @Test func theRightAnswerIsAmongSixKeysFromSmallToLarge() throws {
        for seed in UInt64(0)..<40 {
            for question in [MathsQuestion(0, .plus, 0), MathsQuestion(1, .plus, 1), MathsQuestion(7, .plus, 5),
                             MathsQuestion(99, .times, 100)] {
                let keys = PianoKeys.keys(for: question, seed: seed)
                #expect(keys.count == PianoKeys.count)
                #expect(keys.contains(question.answer))
                #expect(keys == keys.sorted() && Set(keys).count == keys.count)
                #expect(keys.allSatisfy { $0 >= 0 })
                #expect(PianoKeys.keys(for: question, seed: seed) == keys)
            }
        }
        // The right key is not always in the same place.
        let places = Set((UInt64(0)..<20).map { PianoKeys.keys(for: MathsQuestion(7, .plus, 5), seed: $0).firstIndex(of: 12) })
        #expect(places.count > 2)
    }
}
