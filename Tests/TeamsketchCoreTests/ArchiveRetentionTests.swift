import Testing
@testable import TeamsketchCore

/// The admin's choices of how long archived classes are kept, and how the
/// server's number of days reads back as one of them.
@Suite struct ArchiveRetentionTests {
    @Test func theServersDaysReadBackAsTheChoiceThatSentThem() {
        for choice in ArchiveRetention.choices {
            #expect(ArchiveRetention(days: choice.days) == choice)
        }
        #expect(ArchiveRetention(days: nil) == .kept && ArchiveRetention.kept.days == nil)
        #expect(ArchiveRetention.years(2).days == 730)
    }

    @Test func aPeriodSetElsewhereIsShownAsItsDays() {
        #expect(ArchiveRetention(days: 90) == .days(90))
        #expect(ArchiveRetention(days: 90).days == 90)
        #expect(!ArchiveRetention.choices.contains(.days(90)))
    }
}
