import Foundation
import LearnModel

/// A word pool as the teacher edits it in a list: rows of text that become
/// a pool only when every row is a word a game can deal, by the same rules
/// as a CSV import (and no word twice).
public struct PoolDraft: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var word: String
        public var hint: String
        public var priority: String
        public init(word: String = "", hint: String = "", priority: String = "") {
            self.word = word; self.hint = hint; self.priority = priority
        }
    }

    public var id: String
    public var name: String
    public var language: String
    public var rows: [Row]

    public init(pool: WordPool) {
        id = pool.id
        name = pool.name
        language = pool.language
        rows = pool.items.map { Row(word: $0.word, hint: $0.hint, priority: String($0.priority)) }
    }

    /// A new, empty pool in `language`.
    public init(newIn language: String, name: String) {
        id = UUID().lowercasedText
        self.name = name
        self.language = language
        rows = [Row()]
    }

    /// A list holds at most as many rows as a file may bring, so neither
    /// typing nor an import makes a list the editor (or a game) chokes on.
    public static let maxRows = WordPoolCSV.maxRows

    /// Adds an empty row at the end; false (and nothing added) when the
    /// list is full.
    @discardableResult
    public mutating func addRow() -> Bool {
        guard rows.count < Self.maxRows else { return false }
        rows.append(Row())
        return true
    }

    /// Removes the row at `index` and returns it (nil for no such row).
    public mutating func removeRow(at index: Int) -> Row? {
        guard rows.indices.contains(index) else { return nil }
        return rows.remove(at: index)
    }

    /// Puts a removed row back where it was (or at the end, if the list got
    /// shorter since); returns where it went, nil when the list is full.
    @discardableResult
    public mutating func restore(_ row: Row, at index: Int) -> Int? {
        guard rows.count < Self.maxRows else { return nil }
        let at = min(max(index, 0), rows.count)
        rows.insert(row, at: at)
        return at
    }

    /// The words of a file become the rows, at most `maxRows` of them (the
    /// import caps them already; this holds for any caller).
    public mutating func replaceRows(with items: [WordItem]) {
        rows = items.prefix(Self.maxRows).map { Row(word: $0.word, hint: $0.hint, priority: String($0.priority)) }
    }

    /// Why each row that is not a word yet is not, by index: what the list
    /// marks on the row itself.
    public var badRows: [Int: CSVRowError.Reason] {
        Dictionary(problems.map { ($0.row, $0.reason) }, uniquingKeysWith: { first, _ in first })
    }

    /// The rows that are not words yet, by index, and why (a word twice
    /// names the row, counted from 1, where it came first).
    public var problems: [(row: Int, reason: CSVRowError.Reason)] {
        var out: [(Int, CSVRowError.Reason)] = []
        var first: [String: Int] = [:]
        for (i, row) in rows.enumerated() {
            switch WordPoolCSV.item(word: row.word, hint: row.hint, priority: row.priority) {
            case .failure(let reason): out.append((i, reason))
            case .success(let item):
                if let earlier = first[item.word] {
                    out.append((i, .duplicateWord(firstLine: earlier + 1)))
                } else {
                    first[item.word] = i
                }
            }
        }
        return out
    }

    /// The pool to save, or nil while a row is not a word (or there is none,
    /// or there are more than a pool may hold).
    public var pool: WordPool? {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !rows.isEmpty, rows.count <= WordPoolCSV.maxRows, problems.isEmpty else { return nil }
        let items = rows.compactMap { try? WordPoolCSV.item(word: $0.word, hint: $0.hint, priority: $0.priority).get() }
        return WordPool(id: id, name: name, language: language, items: items)
    }
}

/// How a game would deal a pool: the first round's word for each of a few
/// players, with the letters they must get from their team left out, so
/// the teacher sees whether the words suit the class before a lesson.
public enum DealPreview {
    public struct Word: Equatable, Sendable {
        public var word: String
        public var hint: String
        /// The word with the letters to be sent by teammates as "_".
        public var shown: String
    }

    public static func firstRound(of pool: WordPool, players: Int, seed: UInt64, at date: Date = Date()) -> [Word] {
        guard players > 0, pool.items.contains(where: \.isPlayable) else { return [] }
        let ids = (0..<min(players, 8)).map { PlayerID($0) }
        let game = WordPostGame(pool: pool, players: ids, seed: seed, at: date)
        return ids.compactMap { id in
            guard let word = game.words[id] else { return nil }
            let shown = word.slots.map { $0.given ? $0.grapheme : "_" }.joined(separator: " ")
            return Word(word: word.item.word, hint: word.item.hint, shown: shown)
        }
    }
}
