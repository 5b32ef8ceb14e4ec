import Foundation

/// The pools that ship with the app and work offline (SPEC §3), read from
/// `Resources/pools/<language>.json`: `{"id", "name", "language", "items":
/// [{"word", "hint", "priority"}]}`, the `WordPool` coding.
public enum BuiltInPools {
    public static let germanID = "builtin.de"
    public static let englishID = "builtin.en"

    public static func german() throws -> WordPool { try load("de") }
    public static func english() throws -> WordPool { try load("en") }
    public static func all() throws -> [WordPool] { [try german(), try english()] }

    public static func load(_ language: String) throws -> WordPool {
        guard let url = Bundle.module.url(forResource: language, withExtension: "json", subdirectory: "Resources/pools")
        else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Resources/pools/\(language).json"]) }
        return try JSONDecoder().decode(WordPool.self, from: Data(contentsOf: url))
    }
}
