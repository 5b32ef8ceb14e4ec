/// A teacher's (or built-in) list of words.
///
/// Item order is age: items are appended as the teacher adds them, so a
/// later position means a newer word (drawing favours those).
public struct WordPool: Hashable, Codable, Sendable, Identifiable {
    /// Stable id: "builtin.de", "builtin.en", or a lowercase UUID for pools
    /// teachers make.
    public var id: String
    public var name: String
    /// BCP 47 tag, e.g. "de", "en".
    public var language: String
    public var items: [WordItem]

    public init(id: String, name: String, language: String, items: [WordItem]) {
        self.id = id
        self.name = name
        self.language = language
        self.items = items
    }
}
