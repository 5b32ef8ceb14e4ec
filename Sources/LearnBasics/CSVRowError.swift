/// A row of a pool CSV that was not imported, so the screen can list them
/// and ask whether to import the rest.
public struct CSVRowError: Hashable, Sendable, Error {
    public enum Reason: Hashable, Sendable, Error {
        case emptyWord
        case emptyHint
        /// Fewer than the three columns.
        case missingColumn
        case tooManyColumns
        /// Not an integer in `WordItem.priorityRange`; the text as found.
        case badPriority(String)
        /// A space cannot be a tile; "Teddy Bär" would be two words.
        case whitespaceInWord
        /// One grapheme cannot have a letter hidden and one shown.
        case wordTooShort
        /// The hint gives the word away.
        case hintContainsWord
        /// The word already appeared on `firstLine`; a game never deals a word twice.
        case duplicateWord(firstLine: Int)
        /// A quoted field runs to the end of the file.
        case unterminatedQuote
        /// Longer than a word on a child's screen can be.
        case wordTooLong(limit: Int)
        /// Longer than a hint a child reads.
        case hintTooLong(limit: Int)
        /// This row and all after it are past the most a pool holds.
        case tooManyRows(limit: Int)
    }

    /// 1-based line where the record starts (the header is line 1).
    public var line: Int
    public var reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }
}

/// The file as a whole cannot be a pool.
public enum WordPoolCSVError: Error, Hashable, Sendable {
    case notUTF8
    /// The first line is not `word,hint,priority`.
    case badHeader(String)
    /// More bytes than any word list has; not read.
    case tooLarge(limit: Int)
}
