import Foundation
import LearnModel

/// Buchstaben Post's results, written once per finished round for each
/// named player. Only the device that owns the game writes them — a pupil
/// playing alone, or the host of a LAN game; members see the same rounds
/// and must not count them again.
public struct RoundStatsRecorder: Sendable {
    /// How this device takes part in the game.
    public enum Seat: Equatable, Sendable {
        case solo
        case host
        case member
    }

    public let seat: Seat
    /// One id per game, so a teacher can tell two games of the same day apart.
    public let gameID: UUID
    private let store: StoreClient?
    /// Who the players are at school: results are filed under each
    /// player's own account, never all under this laptop's.
    private let accounts: PlayerAccounts
    private var recordedRounds: Set<Int> = []

    public init(seat: Seat, store: StoreClient?, accounts: PlayerAccounts = PlayerAccounts(), gameID: UUID = UUID()) {
        self.seat = seat
        self.store = store
        self.accounts = accounts
        self.gameID = gameID
    }

    /// Whether this device writes the stats.
    public var records: Bool { seat != .member }

    /// Players whose results are kept: those with a name. A player shown as
    /// "Player 2" is nobody a teacher could look up.
    public static func namedPlayers(_ names: [PlayerID: String]) -> [PlayerID: String] {
        names.compactMapValues { name in
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// Records the round, unless this device does not record or already did
    /// for this round; `me` is the player at this laptop. Returns the rows
    /// written; throws when the store refused them (the round still counts
    /// as handled: a second try after a partial failure could count it twice).
    @discardableResult
    public mutating func roundFinished(_ summary: WordPostRoundSummary?, names: [PlayerID: String],
                                       me: PlayerID?) throws(RoundStatsError) -> Int {
        guard records, let summary, let store, !recordedRounds.contains(summary.round) else { return 0 }
        recordedRounds.insert(summary.round)
        let named = Self.namedPlayers(names)
        do {
            return try store.recordRound(summary, gameID, named, accounts.resolve(named, me: me))
        } catch {
            throw RoundStatsError(round: summary.round, underlying: error)
        }
    }
}

/// A round's results could not be stored.
public struct RoundStatsError: Error, CustomStringConvertible {
    public var round: Int
    public var underlying: any Error

    public init(round: Int, underlying: any Error) {
        self.round = round
        self.underlying = underlying
    }

    public var description: String { String(describing: underlying) }
}
