import Foundation
import LearnModel
import LearnStore

/// Buchstaben Post results as a spreadsheet: one row per pupil with the
/// numbers the teacher's window shows and the pupil's grade and comment.
/// Text cells go through `SpreadsheetText` like the grades' sheet, so a
/// pupil named "=HYPERLINK(...)" runs nothing when the file is opened.
public struct GameStatsSheet: Sendable {
    /// The columns, as an English file names them; a translated sheet
    /// gives its own titles in this order.
    public static let columns = ["pupil", "words", "rounds", "seconds_per_word", "letters_sent", "letters_received",
                                 "wrong_placements", "last_played", "grade", "comment"]
    public static let header = columns.joined(separator: ",")

    private struct Row: Sendable {
        var record: WordPostPlayerRecord
        var grade: GradeRecord?
    }

    private var rows: [Row] = []

    public init() {}

    /// Adds a pupil's results; `grade` is their grade on them, if any.
    public mutating func add(_ record: WordPostPlayerRecord, grade: GradeRecord?) {
        rows.append(Row(record: record, grade: grade?.deleted == true ? nil : grade))
    }

    /// RFC 4180 text with CRLF line ends in `dialect`, under `titles` (the
    /// columns' own names unless one title is given for each).
    public func csv(_ dialect: SpreadsheetDialect = .english, titles: [String] = columns) -> String {
        var out = dialect.row((titles.count == Self.columns.count ? titles : Self.columns).map(dialect.text))
        for row in rows {
            let r = row.record
            let average = r.averageMilliseconds.map { dialect.tenths(Double($0) / 1000) } ?? ""
            let last = r.rounds.map(\.playedAt).max().map(SpreadsheetText.minute) ?? ""
            out += dialect.row([dialect.text(r.playerName), String(r.wordsFinished), String(r.rounds.count), average,
                                String(r.lettersSent), String(r.lettersReceived), String(r.wrongPlacements), last,
                                row.grade?.grade.map(String.init) ?? "", dialect.text(row.grade?.comment ?? "")])
        }
        return out
    }
}
