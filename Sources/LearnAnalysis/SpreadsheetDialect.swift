import Foundation

/// How a CSV file is written for the language a teacher's spreadsheet is
/// set to. LibreOffice and Excel in German read ";" between cells and a
/// decimal comma, in English "," and a point; a German file written the
/// English way (or a "0,5" from a C library that followed the desktop's
/// locale, unquoted between commas) puts numbers into the wrong columns.
/// Numbers are written here, never by the process's locale.
public struct SpreadsheetDialect: Hashable, Sendable {
    public var separator: Unicode.Scalar
    public var decimalComma: Bool

    public static let english = SpreadsheetDialect(separator: ",", decimalComma: false)
    public static let german = SpreadsheetDialect(separator: ";", decimalComma: true)

    /// German for a German language ("de", "de_AT.UTF-8"), else English.
    public static func forLanguage(_ code: String) -> SpreadsheetDialect {
        code.lowercased().hasPrefix("de") ? .german : .english
    }

    /// A text cell (`SpreadsheetText`): formula-guarded, quoted when it holds
    /// this dialect's separator, a quote or a line break.
    public func text(_ value: String) -> String { SpreadsheetText.cell(value, separator: separator) }

    /// A number with one decimal place, "12.5" or "12,5"; empty for one no
    /// spreadsheet cell should hold (not finite, or beyond a trillion).
    public func tenths(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "" }
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(tenths.magnitude / 10)\(decimalComma ? "," : ".")\(tenths.magnitude % 10)"
    }

    /// One row, cells as given (text already through `text`), CRLF after.
    public func row(_ cells: [String]) -> String {
        cells.joined(separator: String(Character(separator))) + "\r\n"
    }
}
