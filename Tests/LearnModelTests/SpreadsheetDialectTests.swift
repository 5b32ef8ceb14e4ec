import Foundation
import Testing
@testable import LearnModel

/// A grades sheet opens in a German LibreOffice with every cell in its
/// column: ";" between cells, decimal commas, and text holding either
/// quoted; in English as before.
@Suite struct SpreadsheetDialectTests {
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func sheet() -> GradeSheet {
        let line = { (author: String, length: Double, at: Double) in
            Stroke(author: author, color: PenColor.red.rgba, width: 4, start: Point(0, 10),
                   segments: [.line(from: Point(0, 10), to: Point(length, 10))],
                   startedAt: self.t0.addingTimeInterval(at), endedAt: self.t0.addingTimeInterval(at + 27))
        }
        let doc = SketchDocument(meta: SketchMeta(name: "Haus; Garten", createdAt: t0),
                                 ops: [.addStroke(line("Mia", 300, 0)), .addStroke(line("Ole", 100, 40))])
        var sheet = GradeSheet()
        sheet.add(doc, grade: GradeRecord(target: .sketch, targetId: GradedWorkID(doc.meta.id), grade: 2,
                                          comment: "Schön, sehr \"gut\"; weiter so", at: 1))
        return sheet
    }

    @Test func aGermanSheetHasEveryCellInItsColumn() {
        let titles = ["Bild", "Datum", "Kind", "Striche", "Anteil (%)", "aktive Minuten", "fremde Striche radiert",
                      "Note Team", "Kommentar Team", "Note Kind", "Kommentar Kind"]
        let text = sheet().csv(.german, titles: titles)
        let records = CSVRecords.parse(text, separator: ";")
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.fields.count == GradeSheet.columns.count }, "\(records.map(\.fields))")
        #expect(records[0].fields == titles)
        #expect(records[1].fields[0] == "Haus; Garten")
        #expect(records[1].fields[5] == "0,5", "a decimal comma, in its own cell")
        #expect(records[1].fields[8] == "Schön, sehr \"gut\"; weiter so")
    }

    @Test func anEnglishSheetIsAsBefore() {
        let text = sheet().csv()
        let records = CSVRecords.parse(text)
        #expect(text.hasPrefix(GradeSheet.header + "\r\n"))
        #expect(records.allSatisfy { $0.fields.count == GradeSheet.columns.count })
        #expect(records[1].fields[5] == "0.5")
        // Titles of the wrong count are not trusted: the columns' own names.
        #expect(sheet().csv(.german, titles: ["Bild"]).hasPrefix(GradeSheet.columns.joined(separator: ";")))
    }

    @Test func numbersAreWrittenTheSameWhateverTheLocale() {
        #expect(SpreadsheetDialect.german.tenths(12.34) == "12,3")
        #expect(SpreadsheetDialect.english.tenths(-0.06) == "-0.1")
        #expect(SpreadsheetDialect.english.tenths(0.04) == "0.0")
        #expect(SpreadsheetDialect.english.tenths(.nan) == "" && SpreadsheetDialect.english.tenths(.infinity) == "")
        #expect(SpreadsheetDialect.german.tenths(2e12) == "")
        #expect(SpreadsheetDialect.forLanguage("de_AT.UTF-8") == .german)
        #expect(SpreadsheetDialect.forLanguage("en_US_POSIX") == .english && SpreadsheetDialect.forLanguage("C") == .english)
    }
}
