import Foundation
import LearnBasics

/// A text cell of a CSV file a teacher opens in a spreadsheet. Names and
/// comments come from pupils' devices: a cell a spreadsheet would run as a
/// formula (a pupil named "=HYPERLINK(...)") gets an apostrophe in front,
/// so opening the file runs nothing; then RFC 4180 quoting.
public enum SpreadsheetText {
    public static func cell(_ value: String, separator: Unicode.Scalar = ",") -> String {
        let guarded = value.first.map { "=+-@\t\r".contains($0) } == true ? "'" + value : value
        return CSVRecords.escape(guarded, separator: separator)
    }

    /// "2026-11-25 08:10" in the computer's time zone.
    public static func minute(_ date: Date) -> String {
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = .current
        day.dateFormat = "yyyy-MM-dd HH:mm"
        return day.string(from: date)
    }
}
