import Foundation
import LearnBasics

/// Pool import/export as CSV: UTF-8 (a BOM is skipped), header
/// `word,hint,priority`, RFC 4180 quoting. An empty priority means
/// `WordItem.defaultPriority`. Words and hints are trimmed, since
/// spreadsheets like to keep stray spaces.
public enum WordPoolCSV {
    public static let header = "word,hint,priority"
    /// Caps on what a file may hold. A class list has tens of words; these
    /// leave room for a whole school's and keep a hostile file cheap.
    public static let maxFileBytes = 2 << 20
    public static let maxRows = 5_000
    public static let maxWordLength = 40
    public static let maxHintLength = 300

    /// Reads and imports a file, reading at most `maxFileBytes` + 1 bytes.
    public static func importItems(contentsOf path: String) throws -> Import {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        // One byte past the cap tells a file at the cap from a bigger one.
        let data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        return try importItems(data)
    }

    public struct Import: Hashable, Sendable {
        /// The good rows, in file order.
        public var items: [WordItem]
        /// The rows left out, in file order; the screen asks before importing
        /// `items` when this is not empty.
        public var errors: [CSVRowError]
    }

    public static func importItems(_ data: Data) throws -> Import {
        guard data.count <= maxFileBytes else { throw WordPoolCSVError.tooLarge(limit: maxFileBytes) }
        guard var text = String(data: data, encoding: .utf8) else { throw WordPoolCSVError.notUTF8 }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        return try importItems(text)
    }

    public static func importItems(_ text: String) throws -> Import {
        var records = CSVRecords.parse(anySeparator: text)
        guard !records.isEmpty else { throw WordPoolCSVError.badHeader("") }
        let head = records.removeFirst()
        let names = head.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard names == ["word", "hint", "priority"] else {
            throw WordPoolCSVError.badHeader(head.fields.joined(separator: ","))
        }
        var items: [WordItem] = []
        var errors: [CSVRowError] = []
        var firstLine: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            guard index < maxRows else {
                errors.append(CSVRowError(line: record.line, reason: .tooManyRows(limit: maxRows)))
                break
            }
            switch item(from: record) {
            case .failure(let reason):
                errors.append(CSVRowError(line: record.line, reason: reason))
            case .success(let item):
                if let first = firstLine[item.word] {
                    errors.append(CSVRowError(line: record.line, reason: .duplicateWord(firstLine: first)))
                } else {
                    firstLine[item.word] = record.line
                    items.append(item)
                }
            }
        }
        return Import(items: items, errors: errors)
    }

    private static func item(from record: CSVRecords.Record) -> Result<WordItem, CSVRowError.Reason> {
        if record.unterminated { return .failure(.unterminatedQuote) }
        if record.fields.count < 3 { return .failure(.missingColumn) }
        if record.fields.count > 3 { return .failure(.tooManyColumns) }
        return item(word: record.fields[0], hint: record.fields[1], priority: record.fields[2])
    }

    /// One word as a teacher typed it (in a file or in the word list): the
    /// same rules for both. Text is trimmed; an empty priority is the default.
    public static func item(word rawWord: String, hint rawHint: String, priority rawPriority: String)
        -> Result<WordItem, CSVRowError.Reason> {
        let word = rawWord.trimmingCharacters(in: .whitespacesAndNewlines)
        let hint = rawHint.trimmingCharacters(in: .whitespacesAndNewlines)
        let priorityText = rawPriority.trimmingCharacters(in: .whitespaces)
        if word.isEmpty { return .failure(.emptyWord) }
        if word.count > maxWordLength { return .failure(.wordTooLong(limit: maxWordLength)) }
        if hint.count > maxHintLength { return .failure(.hintTooLong(limit: maxHintLength)) }
        if word.contains(where: \.isWhitespace) { return .failure(.whitespaceInWord) }
        if word.count < 2 { return .failure(.wordTooShort) }
        if hint.isEmpty { return .failure(.emptyHint) }
        if hint.localizedLowercase.contains(word.localizedLowercase) { return .failure(.hintContainsWord) }
        var priority = WordItem.defaultPriority
        if !priorityText.isEmpty {
            guard let p = Int(priorityText), WordItem.priorityRange.contains(p) else {
                return .failure(.badPriority(priorityText))
            }
            priority = p
        }
        return .success(WordItem(word: word, hint: hint, priority: priority))
    }

    /// The pool's items as CSV text (CRLF line ends, as RFC 4180 says).
    public static func export(_ items: [WordItem]) -> String {
        var out = header + "\r\n"
        for item in items {
            out += CSVRecords.escape(item.word) + "," + CSVRecords.escape(item.hint) + "," + String(item.priority) + "\r\n"
        }
        return out
    }

    /// UTF-8 bytes without a BOM.
    public static func exportData(_ items: [WordItem]) -> Data {
        Data(export(items).utf8)
    }
}
