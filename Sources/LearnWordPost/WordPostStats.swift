import Foundation

/// A player's totals over the game: how the team worked together, which is
/// what teachers want to see. Nothing here is a score; nobody sees a ranking.
public struct WordPostPlayerStats: Hashable, Codable, Sendable {
    public var wordsFinished = 0
    public var lettersSent = 0
    public var lettersReceived = 0
    public var wrongPlacements = 0

    public init() {}
}

/// One player's part of a finished (or abandoned) round, what the store
/// records per pupil.
public struct WordPostRoundResult: Hashable, Codable, Sendable {
    public var player: PlayerID
    public var word: String
    public var finished: Bool
    /// From the deal to the player's last letter (or to the round's end when
    /// unfinished), in milliseconds.
    public var milliseconds: Int64
    public var lettersSent: Int
    public var lettersReceived: Int
    public var wrongPlacements: Int

    public init(player: PlayerID, word: String, finished: Bool, milliseconds: Int64,
                lettersSent: Int, lettersReceived: Int, wrongPlacements: Int) {
        self.player = player; self.word = word; self.finished = finished; self.milliseconds = milliseconds
        self.lettersSent = lettersSent; self.lettersReceived = lettersReceived; self.wrongPlacements = wrongPlacements
    }
}

/// A round as it ended: everyone finished, or the game ended during it.
public struct WordPostRoundSummary: Hashable, Codable, Sendable {
    public var round: Int
    public var startedAt: Date
    public var endedAt: Date
    /// Players who were still in the game at the end of the round.
    public var results: [WordPostRoundResult]

    public init(round: Int, startedAt: Date, endedAt: Date, results: [WordPostRoundResult]) {
        self.round = round; self.startedAt = startedAt; self.endedAt = endedAt; self.results = results
    }
}
