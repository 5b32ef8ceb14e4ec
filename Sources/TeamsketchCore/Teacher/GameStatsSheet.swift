import Foundation
import LearnModel
import LearnStore

/// Buchstaben Post results as a spreadsheet: one row per pupil with the
/// numbers the teacher's window shows and the pupil's grade and comment.
/// Text cells go through `SpreadsheetText` like the grades' sheet, so a
/// pupil named "=HYPERLINK(...)" runs nothing when the file is opened.
public struct GameStatsSheet: Sendable {
    public static let header = "pupil,words,rounds,seconds_per_word,letters_sent,letters_received,wrong_placements,"
        + "last_played,grade,comment"

    private var lines: [String] = []

    public init() {}

    /// Adds a pupil's results; `grade` is their grade on them, if any.
    public mutating func add(_ record: WordPostPlayerRecord, grade: GradeRecord?) {
        let grade = grade?.deleted == true ? nil : grade
        let average = record.averageMilliseconds.map { String(format: "%.1f", Double($0) / 1000) } ?? ""
        let last = record.rounds.map(\.playedAt).max().map(SpreadsheetText.minute) ?? ""
        let cells = [SpreadsheetText.cell(record.playerName), String(record.wordsFinished), String(record.rounds.count),
                     average, String(record.lettersSent), String(record.lettersReceived), String(record.wrongPlacements),
                     last, grade?.grade.map(String.init) ?? "", SpreadsheetText.cell(grade?.comment ?? "")]
        lines.append(cells.joined(separator: ","))
    }

    /// RFC 4180 text with CRLF line ends.
    public func csv() -> String {
        ([Self.header] + lines).map { $0 + "\r\n" }.joined()
    }
}
