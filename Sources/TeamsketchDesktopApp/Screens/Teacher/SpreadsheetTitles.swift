import Foundation
import LearnModel
import TeamsketchCore

/// The teacher's two spreadsheets' column titles in the teacher's
/// language; in English they are the sheets' own column names (as scripts
/// read them).
enum SpreadsheetTitles {
    static var sketches: [String] {
        [`_`("sketch"), `_`("date"), `_`("pupil"), `_`("strokes"), `_`("ink_percent"), `_`("active_minutes"),
         `_`("erased_others"), `_`("team_grade"), `_`("team_comment"), `_`("pupil_grade"), `_`("pupil_comment")]
    }

    static var game: [String] {
        [`_`("pupil"), `_`("words"), `_`("rounds"), `_`("seconds_per_word"), `_`("letters_sent"),
         `_`("letters_received"), `_`("wrong_placements"), `_`("last_played"), `_`("grade"), `_`("comment")]
    }

    /// The spreadsheet's language is the one this computer writes dates in:
    /// a German desktop's LibreOffice reads ";" and decimal commas.
    static var dialect: SpreadsheetDialect { SpreadsheetDialect.forLanguage(FormatLocale.current.identifier) }
}
