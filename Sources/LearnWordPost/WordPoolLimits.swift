/// What a pool may hold to be played on the LAN. The pool goes to every
/// member once, in pieces that each fit a frame, so the caps bound what a
/// member must hold in memory, not what one frame carries. They are the CSV
/// import's caps (a pool that came from a file always fits), plus byte caps,
/// since one character can be many bytes.
public enum WordPoolLimits {
    public static let maxWords = WordPoolCSV.maxRows
    public static let maxWordCharacters = WordPoolCSV.maxWordLength
    public static let maxHintCharacters = WordPoolCSV.maxHintLength
    /// Room for 40 characters with a combining mark or two each.
    public static let maxWordBytes = 256
    /// Room for 300 characters of any script.
    public static let maxHintBytes = 2048
    /// Words and hints together, in UTF-8: as much as a CSV file may hold.
    public static let maxPoolBytes = WordPoolCSV.maxFileBytes

    /// The first limit the pool passes, or nil if it may be played together.
    public static func problem(in pool: WordPool) -> WordPoolLimitProblem? {
        guard pool.items.count <= maxWords else { return .tooManyWords(limit: maxWords) }
        var total = 0
        for item in pool.items {
            if item.word.utf8.count > maxWordBytes || item.word.count > maxWordCharacters {
                return .wordTooLong(word: WordPoolLimitProblem.shown(item.word), limit: maxWordCharacters)
            }
            if item.hint.utf8.count > maxHintBytes || item.hint.count > maxHintCharacters {
                return .hintTooLong(word: WordPoolLimitProblem.shown(item.word), limit: maxHintCharacters)
            }
            total += item.word.utf8.count + item.hint.utf8.count
        }
        guard total <= maxPoolBytes else { return .tooManyBytes(limit: maxPoolBytes) }
        return nil
    }

    public static func check(_ pool: WordPool) throws(WordPoolLimitProblem) {
        if let problem = problem(in: pool) { throw problem }
    }
}

/// Why a pool cannot be played together; the host's screen says which.
public enum WordPoolLimitProblem: Error, Hashable, Sendable {
    case tooManyWords(limit: Int)
    /// `word` is the start of the word, for the message.
    case wordTooLong(word: String, limit: Int)
    case hintTooLong(word: String, limit: Int)
    case tooManyBytes(limit: Int)

    /// The word for a message: at most 40 characters, each with at most two
    /// marks on it, so a word made of stacked accents cannot paint over the
    /// message that names it.
    static func shown(_ word: String) -> String {
        var out = ""
        for ch in word.prefix(WordPoolLimits.maxWordCharacters) {
            out.unicodeScalars.append(contentsOf: ch.unicodeScalars.prefix(3))
        }
        return word.count > WordPoolLimits.maxWordCharacters ? out + "…" : out
    }
}
