import Foundation

/// The pools that ship with the app and work offline. Their files live in
/// the app's resources as `pools/<language>.json` (`{"id", "name",
/// "language", "items": [{"word", "hint", "priority"}]}`, the `WordPool`
/// coding); finding them is the app's job, so this only decodes bytes it is
/// given and stays free of any idea of where files are.
public enum BuiltInPools {
    public static let germanID = id("de")
    public static let englishID = id("en")

    /// A built-in pool's id: stable across versions, as the store keeps it.
    public static func id(_ language: String) -> String { "builtin.\(language)" }

    /// The languages shipped, in the order they are offered.
    public static let languages = ["de", "en"]

    /// Where a language's file lives below the resources directory.
    public static func resourcePath(_ language: String) -> String { "pools/\(language).json" }

    /// A built-in pool from its file's bytes. A file that decodes but holds
    /// no playable word, or names another language, is as useless to a class
    /// as one that does not decode, so both are errors.
    public static func decode(_ data: Data, language: String) throws -> WordPool {
        let pool = try JSONDecoder().decode(WordPool.self, from: data)
        guard pool.language == language else { throw BuiltInPoolError.wrongLanguage(expected: language, found: pool.language) }
        guard pool.items.contains(where: \.isPlayable) else { throw BuiltInPoolError.noPlayableWords }
        return pool
    }
}

/// Why a built-in pool file that could be read is still not usable.
public enum BuiltInPoolError: Error, Equatable, Sendable {
    case wrongLanguage(expected: String, found: String)
    case noPlayableWords
}
