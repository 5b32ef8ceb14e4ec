import Foundation
import TeamsketchCore
import Testing

@Suite struct TimeLeftTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func countsWholeSecondsUpAndStopsAtZero() {
        #expect(TimeLeft.seconds(until: now.addingTimeInterval(90.2), now: now) == 91)
        #expect(TimeLeft.seconds(until: now.addingTimeInterval(-5), now: now) == 0)
    }

    @Test func aDeadlineFromAnImpossibleDateNeitherTrapsNorGrantsMoreThanTheLongestLimit() {
        #expect(TimeLeft.seconds(until: Date(timeIntervalSince1970: 1e19), now: now) == TimeLeft.longest)
        #expect(TimeLeft.seconds(until: Date(timeIntervalSince1970: -1e19), now: now) == 0)
        #expect(TimeLeft.seconds(until: Date(timeIntervalSince1970: .nan), now: now) == 0)
    }
}
