/// Where a game is.
public enum WordPostPhase: Hashable, Codable, Sendable {
    case notStarted
    case playing(round: Int)
    /// Everyone finished this round; waiting for `nextRound`.
    case roundFinished(round: Int)
    case ended(WordPostEndReason)
}
