import Foundation
import LearnModel
import Testing
@testable import TeamsketchCore

@Suite struct SheetSummaryTests {
    func stroke(_ author: String) -> Stroke {
        Stroke(author: author, color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 4, start: Point(0, 0), segments: [],
               startedAt: Date(timeIntervalSince1970: 0), endedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func anEmptySheetHasNoLinesAndNobody() {
        #expect(SheetSummary([]) == SheetSummary(lines: 0, authors: [], otherAuthors: 0))
    }

    @Test func authorsAreNamedOnceInTheOrderTheyFirstDrew() {
        let s = SheetSummary(["Ole", "Mia", "Ole", "Mia", "Ada"].map(stroke))
        #expect(s == SheetSummary(lines: 5, authors: ["Ole", "Mia", "Ada"], otherAuthors: 0))
    }

    @Test func aBigClassIsCountedNotListed() {
        let s = SheetSummary((1...7).map { stroke("P\($0)") })
        #expect(s.authors == ["P1", "P2", "P3", "P4"])
        #expect(s.otherAuthors == 3)
    }
}
