/// How a word becomes tiles and slots.
///
/// Matching is Swift `String` equality: case-sensitive ("A" is not "a") but
/// canonically equivalent spellings match, because "é" and "e" + U+0301 look
/// the same on screen and a child cannot tell which one the teacher typed.
public enum WordGraphemes {
    /// The word split into extended grapheme clusters.
    public static func split(_ word: String) -> [String] {
        word.map(String.init)
    }

    /// Whether a tile fits a slot.
    public static func matches(_ tile: String, _ slot: String) -> Bool {
        tile == slot
    }

    /// Whether the grapheme is worth hiding: letters and digits, not the
    /// hyphen or apostrophe of "T-Shirt" or "don't", which are no spelling
    /// question.
    static func isHideable(_ grapheme: String) -> Bool {
        grapheme.first.map { $0.isLetter || $0.isNumber } ?? false
    }
}
