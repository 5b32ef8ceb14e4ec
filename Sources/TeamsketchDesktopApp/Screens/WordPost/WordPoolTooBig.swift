import LearnModel

/// Why a word list cannot be played on the LAN, in the host's words: shown
/// before the lobby opens, so no member ever waits for a game that cannot come.
struct WordPoolTooBig: Error, CustomStringConvertible {
    var problem: WordPoolLimitProblem

    /// The title above the message.
    static var title: String { `_`("Too big to play together") }

    var description: String {
        let what = switch problem {
        case .tooManyWords(let limit):
            String(format: `_`("This word list has too many words (at most %d)."), limit)
        case .wordTooLong(let word, _):
            String(format: `_`("The word “%@” is too long."), word)
        case .hintTooLong(let word, _):
            String(format: `_`("The hint for “%@” is too long."), word)
        case .tooManyBytes:
            `_`("This word list is too big.")
        }
        return what + " " + `_`("Play alone, or choose a smaller list.")
    }
}
