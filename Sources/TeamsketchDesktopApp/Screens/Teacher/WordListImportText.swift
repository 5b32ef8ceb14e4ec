import Foundation
import LearnModel

/// What the teacher's window says about a word-list file it could not
/// read in full: what is wrong with a row (when a list is imported or
/// edited), a first line that is not the header, a file far too big.
enum WordListRowText {
    static func text(for reason: CSVRowError.Reason) -> String {
        switch reason {
        case .emptyWord: `_`("the word is empty")
        case .emptyHint: `_`("the hint is empty")
        case .missingColumn: `_`("a column is missing (word,hint,priority)")
        case .tooManyColumns: `_`("too many columns")
        case .badPriority(let p): String(format: `_`("“%@” is not a priority from 0 to 100"), p)
        case .whitespaceInWord: `_`("a word cannot contain a space")
        case .wordTooShort: `_`("the word needs at least two letters")
        case .hintContainsWord: `_`("the hint gives the word away")
        case .duplicateWord(let first): String(format: `_`("the word is already on line %d"), first)
        case .unterminatedQuote: `_`("a quote is not closed")
        case .wordTooLong(let n): String(format: `_`("the word is longer than %d letters"), n)
        case .hintTooLong(let n): String(format: `_`("the hint is longer than %d letters"), n)
        case .tooManyRows(let n): String(format: `_`("a word list holds at most %d words; this row and the rest were left out"), n)
        }
    }
}

/// Shown under "This is not a word list.": what the first line must be.
struct CSVHeaderHint: Error, CustomStringConvertible {
    var description: String {
        String(format: `_`("The first line must be: %@"), WordPoolCSV.header)
    }
}

/// Why a word list was not read at all: it is bigger than any list can be.
struct CSVTooLarge: Error, CustomStringConvertible {
    var limitMB: Int
    var description: String {
        String(format: `_`("A word list is at most %d MB. Please choose the right file."), limitMB)
    }
}
