/// One (word, hint) pair of a pool.
public struct WordItem: Hashable, Codable, Sendable {
    public var word: String
    /// A sentence or question that leads to the word; it must not contain it.
    public var hint: String
    /// Higher is drawn more often; `priorityRange`, default 1.
    public var priority: Int

    public static let defaultPriority = 1
    public static let priorityRange = 0...100

    public init(word: String, hint: String, priority: Int = WordItem.defaultPriority) {
        self.word = word
        self.hint = hint
        self.priority = priority
    }

    /// Playable: at least two graphemes, since one letter must stay visible
    /// and at least one must be hidden.
    public var isPlayable: Bool { word.count >= 2 }
}
