import Foundation
import Testing
@testable import LearnModel
@testable import LearnRecords

@Suite struct RosterCSVTests {
    @Test func goodRowsAreKeptAndBadOnesListedByLine() throws {
        let text = "\u{FEFF}name\nMia\n\"Ole, der Große\"\n\n  \nMia\nA,B\n\(String(repeating: "x", count: 65))\nLi\u{202E}na\nBen\n"
        let result = try RosterCSV.importNames(Data(text.utf8))
        #expect(result.names == ["Mia", "Ole, der Große", "Ben"])
        #expect(result.errors.map(\.line) == [5, 6, 7, 8, 9])
        #expect(result.errors.map(\.reason) == [.emptyName, .duplicateName(firstLine: 2), .tooManyColumns,
                                                 .nameTooLong(limit: 64), .invisibleCharacters])
    }

    @Test func aFileThatIsNoRosterIsRefusedWhole() {
        #expect(throws: RosterCSV.FileError.badHeader("word,hint,priority")) {
            try RosterCSV.importNames(Data("word,hint,priority\nHaus,h,1\n".utf8))
        }
        #expect(throws: RosterCSV.FileError.notUTF8) { try RosterCSV.importNames(Data([0x6E, 0xFF, 0xFE])) }
        #expect(throws: RosterCSV.FileError.tooLarge(limit: RosterCSV.maxFileBytes)) {
            try RosterCSV.importNames(Data(repeating: 0x41, count: RosterCSV.maxFileBytes + 1))
        }
    }

    @Test func rowsPastTheLimitAreOneError() throws {
        let text = "name\n" + (0..<1_005).map { "P\($0)" }.joined(separator: "\n")
        let result = try RosterCSV.importNames(Data(text.utf8))
        #expect(result.names.count == RosterCSV.maxRows)
        #expect(result.errors == [RosterCSV.RowError(line: 1_002, reason: .tooManyRows(limit: 1_000))])
    }

    @Test func anUnterminatedQuoteIsNamed() throws {
        let result = try RosterCSV.importNames(Data("name\nMia\n\"Ole\n".utf8))
        #expect(result.names == ["Mia"])
        #expect(result.errors.map(\.reason) == [.unterminatedQuote])
    }
}
