import Testing
@testable import TeamsketchCore

@Suite struct TextScaleTests {
    @Test func theDesktopsDPIBecomesAFactor() {
        #expect(TextScale.factor(xftDPI: 96 * 1024) == 1)
        #expect(TextScale.factor(xftDPI: 192 * 1024) == 2)
        #expect(TextScale.factor(xftDPI: -1) == 1, "unset reads as normal text")
        #expect(TextScale.factor(xftDPI: Int.max) == 1, "nonsense reads as normal text")
    }

    @Test func bigButtonsFoldIntoTwoRowsFromOneAndAHalfTimesTheText() {
        let five = [1, 2, 3, 4, 5]
        #expect(TextScale.rows(of: five, scale: 1) == [five])
        #expect(TextScale.rows(of: five, scale: 1.25) == [five])
        #expect(TextScale.rows(of: five, scale: 2) == [[1, 2, 3], [4, 5]])
        #expect(TextScale.rows(of: [1, 2], scale: 2) == [[1, 2]], "two buttons fit side by side")
    }
}
