import Foundation
import LearnBasics

/// A class list from a spreadsheet: UTF-8 (a BOM is skipped), a header row
/// `name`, then one pupil per row, RFC 4180 quoting. Rows that cannot be a
/// pupil are listed by line, as the word list import does, and the teacher
/// decides whether to add the rest.
public enum RosterCSV {
    public static let header = "name"
    /// A school's largest class fits many times over; a hostile file stays cheap.
    public static let maxFileBytes = 256 << 10
    public static let maxRows = 1_000
    /// The server's limit on a name.
    public static let maxNameLength = 64

    public struct RowError: Hashable, Sendable, Error {
        public enum Reason: Hashable, Sendable {
            case emptyName
            case nameTooLong(limit: Int)
            /// Control or text-direction characters: they would hide or
            /// reorder what the name shows.
            case invisibleCharacters
            case tooManyColumns
            case duplicateName(firstLine: Int)
            case unterminatedQuote
            case tooManyRows(limit: Int)
        }

        /// 1-based line where the row starts (the header is line 1).
        public var line: Int
        public var reason: Reason
    }

    public enum FileError: Error, Equatable, Sendable {
        case tooLarge(limit: Int)
        case notUTF8
        /// The first row is not `name`; what it was.
        case badHeader(String)
    }

    public struct Import: Hashable, Sendable {
        public var names: [String]
        public var errors: [RowError]
    }

    /// Reads at most `maxFileBytes` + 1 bytes of the file.
    public static func importNames(contentsOf path: String) throws -> Import {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        return try importNames(try handle.read(upToCount: maxFileBytes + 1) ?? Data())
    }

    public static func importNames(_ data: Data) throws -> Import {
        guard data.count <= maxFileBytes else { throw FileError.tooLarge(limit: maxFileBytes) }
        guard var text = String(data: data, encoding: .utf8) else { throw FileError.notUTF8 }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        var records = CSVRecords.parse(anySeparator: text)
        guard !records.isEmpty else { throw FileError.badHeader("") }
        let head = records.removeFirst()
        guard head.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == [header] else {
            throw FileError.badHeader(String(head.fields.joined(separator: ",").prefix(80)))
        }
        var names: [String] = []
        var errors: [RowError] = []
        var firstLine: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            guard index < maxRows else {
                errors.append(RowError(line: record.line, reason: .tooManyRows(limit: maxRows)))
                break
            }
            if let reason = problem(record) {
                errors.append(RowError(line: record.line, reason: reason))
                continue
            }
            let name = record.fields[0].trimmingCharacters(in: .whitespaces)
            if let first = firstLine[name.lowercased()] {
                errors.append(RowError(line: record.line, reason: .duplicateName(firstLine: first)))
            } else {
                firstLine[name.lowercased()] = record.line
                names.append(name)
            }
        }
        return Import(names: names, errors: errors)
    }

    private static func problem(_ record: CSVRecords.Record) -> RowError.Reason? {
        if record.unterminated { return .unterminatedQuote }
        guard record.fields.count == 1 else { return .tooManyColumns }
        let name = record.fields[0].trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return .emptyName }
        if name.count > maxNameLength { return .nameTooLong(limit: maxNameLength) }
        let hidden = name.unicodeScalars.contains { s in
            s.properties.generalCategory == .control || s.properties.generalCategory == .format
        }
        return hidden ? .invisibleCharacters : nil
    }
}
