import Foundation
import LearnBasics

/// Which school account each player of a game is, worked out on the laptop
/// that records the game, from what it knows: the account signed in here
/// is the player sitting at it, and the other players are found by name
/// among the accounts this laptop has profiles of (its class, pulled from
/// the school server). A name that matches no account, or more than one,
/// stays unresolved: its results are kept on this laptop and never filed
/// under a guess.
public struct PlayerAccounts: Sendable, Equatable {
    public struct Account: Sendable, Equatable {
        public var id: UUID
        public var name: String

        public init(id: UUID, name: String) { self.id = id; self.name = name }
    }

    /// The account signed in on this laptop, if any.
    public var signedIn: Account?
    /// Accounts known here by name (profiles), the signed-in one included or not.
    public var known: [Account]

    public init(signedIn: Account? = nil, known: [Account] = []) {
        self.signedIn = signedIn
        self.known = known
    }

    /// The account of each player that can be told; `me` is this laptop's seat.
    /// Nobody but `me` becomes the signed-in account: a teammate who typed
    /// this pupil's name is not this pupil.
    public func resolve(_ names: [PlayerID: String], me: PlayerID?) -> [PlayerID: UUID] {
        var byName: [String: [UUID]] = [:]
        for account in known where account.id != signedIn?.id {
            let key = DisplayName.key(account.name)
            if !key.isEmpty, byName[key]?.contains(account.id) != true { byName[key, default: []].append(account.id) }
        }
        var found: [PlayerID: UUID] = [:]
        for (player, name) in names {
            if player == me, let signedIn {
                found[player] = signedIn.id
            } else if let ids = byName[DisplayName.key(name)], ids.count == 1 {
                found[player] = ids[0]
            }
        }
        // Two players can never be one pupil: a name shared that way is
        // nobody's for sure.
        let counts = Dictionary(found.values.map { ($0, 1) }, uniquingKeysWith: +)
        return found.filter { counts[$0.value] == 1 }
    }
}
