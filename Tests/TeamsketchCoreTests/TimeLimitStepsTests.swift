import Testing
@testable import TeamsketchCore

@Suite struct TimeLimitStepsTests {
    @Test func stepsLandOnWholeFives() {
        let steps = TimeLimitSteps(range: 0...120)
        #expect(steps.more(than: 0) == 5)
        #expect(steps.more(than: 7) == 10)
        #expect(steps.fewer(than: 7) == 5)
        #expect(steps.fewer(than: 10) == 5)
        #expect(steps.fewer(than: 5) == 0)
    }

    @Test func stepsStopAtTheEnds() {
        let steps = TimeLimitSteps(range: 0...120)
        #expect(steps.more(than: 120) == 120)
        #expect(steps.fewer(than: 0) == 0)
        #expect(!steps.canAddMore(to: 120))
        #expect(!steps.canTakeAway(from: 0))
        #expect(steps.canAddMore(to: 118))
        // A value outside the range (an old setting) is brought inside first.
        #expect(steps.more(than: 500) == 120)
        #expect(steps.fewer(than: -3) == 0)
    }

    @Test func aClassMaximumMeansAtLeastAMinuteAndAtMostTheMaximum() {
        var settings = ClassroomSettings()
        settings.setMaxTimeLimit(12)
        let steps = TimeLimitSteps(settings: settings)
        #expect(steps.range == 1...12)
        #expect(steps.fewer(than: 5) == 1)
        #expect(steps.more(than: 1) == 5)
        #expect(steps.more(than: 10) == 12)
        #expect(TimeLimitSteps(settings: ClassroomSettings()).range == ClassroomSettings.timeLimitRange)
    }
}
