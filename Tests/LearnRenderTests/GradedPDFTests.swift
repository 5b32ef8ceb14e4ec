import Foundation
import LearnModel
import LearnRender
import Testing

@Suite struct GradedPDFTests {
    @Test func thePageGrowsByTheTeachersLinesUnderTheSketch() throws {
        let doc = SketchDocument(meta: SketchMeta(name: "Haus", width: 800, height: 500))
        let pdf = try GradedPDF.data(doc, caption: ["Grade: 2", "Well drawn"])
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        let text = String(decoding: pdf, as: UTF8.self)
        // 500 of sketch, 2 × 36 of margin, 2 lines of 32.
        #expect(text.contains("/MediaBox [ 0 0 800 636 ]"), "page size: \(text.prefix(600))")
        let plain = String(decoding: try GradedPDF.data(doc, caption: []), as: UTF8.self)
        #expect(plain.contains("/MediaBox [ 0 0 800 572 ]"))
    }

    @Test func longCommentsAreBrokenAtSpacesAndKeepTheirLines() {
        #expect(GradedPDF.wrap("one two three", at: 7) == ["one two", "three"])
        #expect(GradedPDF.wrap("a\nb", at: 10) == ["a", "b"])
        #expect(GradedPDF.wrap("abcdefghij", at: 4) == ["abcd", "efgh", "ij"])
        #expect(GradedPDF.wrap("", at: 4) == [""])
        let long = String(repeating: "Wort ", count: 400)
        #expect(GradedPDF.wrap(long, at: 110).allSatisfy { $0.count <= 110 })
    }
}

@Suite struct PictureSheetTests {
    @Test func tenCardsToAnA4PageAndAPageMoreForTheEleventh() throws {
        let card = PictureSheet.Card(name: "Mia", pictures: [.moon, .star, .heart])
        let one = String(decoding: try PictureSheet.pdf(title: "2b", cards: Array(repeating: card, count: 10)), as: UTF8.self)
        #expect(one.contains("/MediaBox [ 0 0 595 842 ]"))
        #expect(one.contains("/Count 1"))
        let two = String(decoding: try PictureSheet.pdf(title: "2b", cards: Array(repeating: card, count: 11)), as: UTF8.self)
        #expect(two.contains("/Count 2"))
    }
}
