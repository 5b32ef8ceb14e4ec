/// One tile a child drags: exactly one grapheme (a Swift `Character`), so
/// "Ä", "ß" and "e" + combining acute are single tiles.
public struct LetterTile: Hashable, Codable, Sendable {
    public var id: LetterID
    /// A one-`Character` string, spelled as the teacher wrote it.
    public var grapheme: String

    public init(id: LetterID, grapheme: String) {
        self.id = id
        self.grapheme = grapheme
    }
}
