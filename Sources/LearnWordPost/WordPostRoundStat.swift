import Foundation

/// One pupil's result of one Buchstaben Post round, as a laptop records it
/// and sync carries it. Shared by the laptops and the school server, so
/// both hold a result to the same limits (`problem`).
public struct WordPostRoundStat: Hashable, Codable, Sendable {
    public var id: UUID
    public var gameID: UUID
    public var round: Int
    public var playerName: String
    public var word: String
    public var finished: Bool
    public var milliseconds: Int64
    public var lettersSent: Int
    public var lettersReceived: Int
    public var wrongPlacements: Int
    public var playedAt: Date
    /// The school account of the pupil who played, as the recording laptop
    /// worked it out (`PlayerAccounts`). The server files the result under
    /// it; without one (laptops before accounts were sent) the result is
    /// the pushing account's own.
    public var playerID: UUID?

    public init(id: UUID, gameID: UUID, round: Int, playerName: String, word: String, finished: Bool,
                milliseconds: Int64, lettersSent: Int, lettersReceived: Int, wrongPlacements: Int, playedAt: Date,
                playerID: UUID? = nil) {
        self.playerID = playerID
        self.id = id; self.gameID = gameID; self.round = round; self.playerName = playerName; self.word = word
        self.finished = finished; self.milliseconds = milliseconds; self.lettersSent = lettersSent
        self.lettersReceived = lettersReceived; self.wrongPlacements = wrongPlacements; self.playedAt = playedAt
    }

    /// No round lasts longer than a day.
    public static let maxMilliseconds: Int64 = 86_400_000
    /// Far above what a round of a few letters can count, far below what
    /// a sum over years of rounds could overflow.
    public static let maxCount = 10_000
    public static let maxNameCharacters = 200

    /// Why a result cannot be one a game produced (a damaged or hostile
    /// laptop's), or nil. Totals add results up, so each is bounded.
    public var problem: String? {
        guard (0...Self.maxMilliseconds).contains(milliseconds) else { return "a round's time is 0 to 24 hours" }
        let counts = [round, lettersSent, lettersReceived, wrongPlacements]
        guard counts.allSatisfy({ (0...Self.maxCount).contains($0) }) else {
            return "a round's counts are 0 to \(Self.maxCount)"
        }
        guard playerName.count <= Self.maxNameCharacters, word.count <= Self.maxNameCharacters else {
            return "a name or word is at most \(Self.maxNameCharacters) characters"
        }
        guard playedAt.timeIntervalSinceReferenceDate.isFinite else { return "a round has no time it was played" }
        return nil
    }
}
