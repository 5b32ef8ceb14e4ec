/// What the UI, the sound and the network layer react to.
public enum WordPostEffect: Hashable, Sendable {
    /// A round was dealt: rebuild words and hands from the state.
    case roundDealt(round: Int)
    /// The tile snapped into the slot.
    case placed(letter: LetterID, player: PlayerID, slot: Int)
    /// Wrong slot: the tile springs back into the hand.
    case rejected(letter: LetterID, player: PlayerID, slot: Int)
    case sent(letter: LetterID, from: PlayerID, to: PlayerID)
    case wordFinished(PlayerID)
    case roundFinished(round: Int)
    case gameEnded(WordPostEndReason)
    /// A player left: their tiles went to the others; `withdrawn` tiles (from
    /// any hand) were only needed for the dropped word and are gone.
    case redistributed(from: PlayerID, handovers: [LetterHandover], withdrawn: [LetterID])
}

/// One tile given to a remaining player when someone leaves.
public struct LetterHandover: Hashable, Codable, Sendable {
    public var letter: LetterID
    public var to: PlayerID

    public init(letter: LetterID, to: PlayerID) {
        self.letter = letter
        self.to = to
    }
}
