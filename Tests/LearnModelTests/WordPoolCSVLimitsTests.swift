import Foundation
import LearnModel
import Testing

/// Word lists come from e-mail and USB sticks too: rows and fields are
/// capped, and what is over a cap is named by line like any other bad row.
@Suite struct WordPoolCSVLimitsTests {
    @Test func overlongWordsAndHintsAreRowErrors() throws {
        let longWord = String(repeating: "a", count: WordPoolCSV.maxWordLength + 1)
        let longHint = String(repeating: "Wolke ", count: WordPoolCSV.maxHintLength)
        let text = "word,hint,priority\nSommer,Heiß,1\n\(longWord),Ein Wort,1\nRegen,\(longHint),1\n"
        let result = try WordPoolCSV.importItems(text)
        #expect(result.items.map(\.word) == ["Sommer"])
        #expect(result.errors == [
            CSVRowError(line: 3, reason: .wordTooLong(limit: WordPoolCSV.maxWordLength)),
            CSVRowError(line: 4, reason: .hintTooLong(limit: WordPoolCSV.maxHintLength)),
        ])
    }

    @Test func rowsPastTheCapAreOneErrorNotThousands() throws {
        var text = "word,hint,priority\n"
        for i in 0..<(WordPoolCSV.maxRows + 500) { text += "Wort\(i),Hinweis,1\n" }
        let result = try WordPoolCSV.importItems(text)
        #expect(result.items.count == WordPoolCSV.maxRows)
        #expect(result.errors == [CSVRowError(line: WordPoolCSV.maxRows + 2,
                                              reason: .tooManyRows(limit: WordPoolCSV.maxRows))])
    }

    @Test func aFileOverTheSizeCapIsRefusedBeforeDecoding() {
        let data = Data(repeating: 0x41, count: WordPoolCSV.maxFileBytes + 1)
        #expect(throws: WordPoolCSVError.tooLarge(limit: WordPoolCSV.maxFileBytes)) {
            try WordPoolCSV.importItems(data)
        }
    }

    @Test func readingAFileStopsAtTheCap() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: WordPoolCSV.maxFileBytes + 10).write(to: URL(fileURLWithPath: path))
        #expect(throws: WordPoolCSVError.tooLarge(limit: WordPoolCSV.maxFileBytes)) {
            try WordPoolCSV.importItems(contentsOf: path)
        }
    }
}
