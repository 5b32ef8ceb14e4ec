import Testing
@testable import LearnMaths

/// Endless practice follows the pupil: three right in a row a step up,
/// two wrong in a row a step down, never off the ladder.
@Suite struct AdaptivePracticeTests {
    @Test func threeRightInARowStepUp() {
        var practice = AdaptivePractice()
        #expect(practice.record(right: true) == nil)
        #expect(practice.record(right: true) == nil)
        #expect(practice.record(right: true) == .up)
        #expect(practice.level == 1 && practice.range == .subtraction(within: 10))
        // The count starts again after a step.
        #expect(practice.record(right: true) == nil)
    }

    @Test func twoWrongInARowStepDown() {
        var practice = AdaptivePractice(level: 4)
        #expect(practice.record(right: false) == nil)
        #expect(practice.record(right: false) == .down)
        #expect(practice.level == 3)
    }

    @Test func aMixedRunStaysWhereItIs() {
        var practice = AdaptivePractice(level: 2)
        for right in [true, true, false, true, true, false, true, false, true, true, false] {
            #expect(practice.record(right: right) == nil)
        }
        #expect(practice.level == 2)
    }

    @Test func theLadderHasEnds() {
        var bottom = AdaptivePractice()
        #expect(bottom.record(right: false) == nil && bottom.record(right: false) == nil)
        #expect(bottom.level == 0)
        var top = AdaptivePractice(level: 99)
        #expect(top.level == AdaptivePractice.ladder.count - 1)
        for _ in 0..<3 { #expect(top.record(right: true) == nil) }
        #expect(top.level == AdaptivePractice.ladder.count - 1)
        #expect(AdaptivePractice(level: -5).level == 0)
        // Every rung makes a valid set.
        for range in AdaptivePractice.ladder {
            #expect(ExerciseGenerator.make(ExerciseRecipe(range: range, count: 10, seed: 1)) != nil)
        }
    }
}
