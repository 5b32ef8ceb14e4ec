import Foundation

/// One slot of a player's word.
public struct WordSlot: Hashable, Codable, Sendable {
    /// The right tile, as written by the teacher.
    public let grapheme: String
    /// Shown from the start (not hidden by the deal).
    public let given: Bool
    /// The tile placed here, if the slot was hidden and is now filled.
    public var placed: LetterID?

    public var isFilled: Bool { given || placed != nil }
}

/// A player's word in the current round.
public struct PlayerWord: Hashable, Codable, Sendable {
    public let item: WordItem
    public var slots: [WordSlot]
    public var finishedAt: Date?
    /// This round's counters; they also go into the player's totals.
    public var lettersSent = 0
    public var lettersReceived = 0
    public var wrongPlacements = 0

    public init(item: WordItem, hidden: Set<Int>) {
        self.item = item
        slots = WordGraphemes.split(item.word).enumerated().map { index, grapheme in
            WordSlot(grapheme: grapheme, given: !hidden.contains(index), placed: nil)
        }
    }

    public var isFinished: Bool { slots.allSatisfy(\.isFilled) }
    /// Indices of the empty slots.
    public var openSlots: [Int] { slots.indices.filter { !slots[$0].isFilled } }
    /// Graphemes still missing, one per empty slot.
    public var missingGraphemes: [String] { openSlots.map { slots[$0].grapheme } }
}
