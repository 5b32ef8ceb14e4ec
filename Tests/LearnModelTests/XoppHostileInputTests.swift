import Foundation
import Testing
@testable import LearnModel

/// Crafted XML that used to cost time growing with the square of its size.
/// The inputs are a few megabytes: a linear scan reads them in milliseconds,
/// a quadratic one takes minutes, so the generous time limit only catches
/// the second kind.
@Suite struct XoppHostileInputTests {
    private func document(title: String = "t", afterPage: String = "") -> [UInt8] {
        Array(("<xournal><title>\(title)</title><page width=\"10\" height=\"10\"/>\(afterPage)</xournal>").utf8)
    }

    @Test(.timeLimit(.minutes(1)))
    func ampersandsWithoutSemicolonsAreReadInOnePass() throws {
        let title = String(repeating: "&", count: 3_000_000)
        let imported = try XoppFormat.parse(document(title: title))
        #expect(imported.title?.utf8.count == 3_000_000)
    }

    @Test(.timeLimit(.minutes(1)))
    func deepNestingAfterASelfClosedPageIsReadInOnePass() throws {
        let depth = 200_000
        let nested = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let imported = try XoppFormat.parse(document(afterPage: nested))
        #expect(imported.strokes.isEmpty)
        #expect(imported.pageWidth == 10)
    }
}
