import Foundation

/// Everything that can happen to a game. Times come in with the actions so
/// the reducer stays pure (and replays are exact).
public enum WordPostAction: Hashable, Codable, Sendable {
    /// Deals round 1. Players in seating order; the seed fixes every draw
    /// and deal of the game.
    case start(players: [PlayerID], seed: UInt64, at: Date)
    /// `player` drops a tile from their hand onto a slot of their own word.
    case place(letter: LetterID, by: PlayerID, slot: Int, at: Date)
    /// A tile moves from one hand to a teammate's.
    case send(letter: LetterID, from: PlayerID, to: PlayerID)
    case playerLeft(PlayerID, at: Date)
    /// Deals the next round; only after everyone has finished.
    case nextRound(at: Date)
    case endGame(at: Date)
    /// Wrong drops of `player` in this round that only the host and the
    /// dropper heard of at once; the others catch up on the counters with the
    /// next change the host sends (docs/PROTOCOL.md "Buchstaben Post").
    case wrongPlacements(player: PlayerID, count: Int)
}
