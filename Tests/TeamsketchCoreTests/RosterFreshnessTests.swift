import Foundation
import Testing
@testable import TeamsketchCore

@Suite struct RosterFreshnessTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func withoutAnAnswerTheServerIsAsked() {
        #expect(RosterFreshness().mustAsk(now: start))
    }

    @Test func anAnswerIsKeptForFiveMinutes() {
        var roster = RosterFreshness()
        roster.answered(at: start)
        #expect(!roster.mustAsk(now: start.addingTimeInterval(299)))
        #expect(roster.mustAsk(now: start.addingTimeInterval(300)))
    }

    @Test func aNameTheRosterDoesNotKnowAsksAgainOnceTheAnswerIsTenSecondsOld() {
        var roster = RosterFreshness()
        roster.answered(at: start)
        #expect(!roster.mustAsk(now: start.addingTimeInterval(9), unknownName: true))
        #expect(roster.mustAsk(now: start.addingTimeInterval(10), unknownName: true))
        #expect(!roster.mustAsk(now: start.addingTimeInterval(10), unknownName: false))
    }

    @Test func whatTheTeacherChangesForgetsTheAnswer() {
        // The pupils were asked for while the new class was still empty;
        // the teacher then adds Mia in their own window.
        var roster = RosterFreshness()
        roster.answered(at: start)
        roster.forget()
        #expect(roster.mustAsk(now: start.addingTimeInterval(1)))
    }

    @Test func aFailedQuestionIsAskedAgainAfterAMinuteEvenForAnUnknownName() {
        var roster = RosterFreshness()
        roster.failed(at: start)
        #expect(!roster.mustAsk(now: start.addingTimeInterval(59), unknownName: true))
        #expect(roster.mustAsk(now: start.addingTimeInterval(60)))
        roster.forget()
        #expect(roster.mustAsk(now: start.addingTimeInterval(1)))
    }

    @Test func aClockSetBackAsksAgain() {
        var roster = RosterFreshness()
        roster.answered(at: start)
        #expect(roster.mustAsk(now: start.addingTimeInterval(-5)))
        roster.failed(at: start)
        #expect(roster.mustAsk(now: start.addingTimeInterval(-5)))
    }
}
