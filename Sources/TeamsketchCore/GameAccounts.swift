import Foundation
import LearnModel
import LearnStore

/// The school accounts this laptop knows for a Buchstaben Post game, for
/// filing each player's results under their own: the one signed in here,
/// the class as the server last listed it (asked for when a team game
/// opens) and the profiles synced from the server. Unreadable profiles
/// only mean fewer names are matched; those results stay on this laptop.
/// Also the words a player already finished, so a new game favours others.
@MainActor
public final class GameAccounts {
    public struct Source {
        public var signIn: @MainActor () -> SchoolSignIn?
        /// The signed-in pupil's class as the server lists it; nil without
        /// an answer.
        public var classRoster: @MainActor () async -> [PlayerAccounts.Account]?
        /// Synced profiles by account id.
        public var profiles: @Sendable () throws -> [String: ProfileRecord]
        public var finishedWords: @Sendable (_ players: [String]) throws -> Set<String>

        public init(signIn: @escaping @MainActor () -> SchoolSignIn?,
                    classRoster: @escaping @MainActor () async -> [PlayerAccounts.Account]?,
                    profiles: @escaping @Sendable () throws -> [String: ProfileRecord],
                    finishedWords: @escaping @Sendable ([String]) throws -> Set<String>) {
            self.signIn = signIn
            self.classRoster = classRoster
            self.profiles = profiles
            self.finishedWords = finishedWords
        }
    }

    private let source: Source
    /// The class as last listed under the current game's lobby.
    private var classRoster: [PlayerAccounts.Account] = []
    private var asking: Task<Void, Never>?

    public init(_ source: Source) { self.source = source }

    /// Over the device's store; `signIn` and `classRoster` are the school link's.
    public static func live(store: LocalStore?, signIn: @escaping @MainActor () -> SchoolSignIn?,
                            classRoster: @escaping @MainActor () async -> [PlayerAccounts.Account]?) -> GameAccounts {
        GameAccounts(Source(signIn: signIn, classRoster: classRoster, profiles: { try store?.profiles() ?? [:] },
                            finishedWords: { try store?.finishedWords(forPlayers: $0) ?? [] }))
    }

    /// Asks the server for the class while the game's lobby fills. Until it
    /// answers (or without an answer) only the profiles are used: a roster
    /// asked for under an earlier sign-in may be another class's.
    @discardableResult
    public func refreshClassRoster() -> Task<Void, Never> {
        classRoster = []
        asking?.cancel()
        let task = Task { @MainActor [weak self, source] in
            guard let roster = await source.classRoster(), !Task.isCancelled else { return }
            self?.classRoster = roster
        }
        asking = task
        return task
    }

    /// A game alone asks for no class: a list from an earlier team game
    /// (maybe under another sign-in) is not used for it.
    public func forgetClassRoster() {
        asking?.cancel()
        asking = nil
        classRoster = []
    }

    public func accounts() -> PlayerAccounts {
        let signedIn = source.signIn().flatMap { s in
            s.accountID.uuid.map { PlayerAccounts.Account(id: $0, name: s.name) }
        }
        let profiles = ((try? source.profiles()) ?? [:]).compactMap { id, profile in
            UUID(uuidString: id).map { PlayerAccounts.Account(id: $0, name: profile.name) }
        }
        return PlayerAccounts(signedIn: signedIn, known: classRoster + profiles)
    }

    /// An unreadable store only makes the draw less clever: no error.
    public func finishedWords(of name: String) -> Set<String> {
        (try? source.finishedWords([name])) ?? []
    }
}
