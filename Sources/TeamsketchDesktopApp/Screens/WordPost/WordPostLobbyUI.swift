import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Buchstaben Post on the join and lobby screens: it speaks of games and
/// players, and a joiner sees the word list while waiting.
struct WordPostLobbyUI: ActivityLobbyUI {
    var entry: ActivityEntry { ActivityCatalogue.wordPost }

    var joinTitle: String { `_`("Join a game") }
    var lookingNearby: String { `_`("Looking for games nearby…") }
    var codeFieldName: String { `_`("Code or address of the game") }

    func makeJoiner(nav: any Navigator, lan: LanEnvironment) -> any LobbySession { WordPostSession(nav: nav, lan: lan) }

    /// The word list and how many words it has.
    func waitingSummary(_ lobby: Lobby) -> String {
        guard let info = lobby.wordPost else { return `_`("Buchstaben Post") }
        return "«\(info.poolName)» · " + String(format: _n("%d word", "%d words", info.wordCount), info.wordCount)
    }

    /// A game's words for being let in, sent away and for the end (the
    /// sketch's speak of painters and a saved sketch).
    var wording: SessionWording {
        SessionWording(letIn: Self.letIn,
                       full: `_`("This game already has four players."),
                       wrongVersion: `_`("This Teamsketch is too old or too new for that game."),
                       alreadyOver: `_`("That game has ended."),
                       lobbyFull: `_`("The lobby is full. Try again soon."),
                       sentAway: `_`("The host said no this time."),
                       ended: `_`("The game has ended."),
                       hostLeft: `_`("The host left. The game is over."))
    }

    func lobbyStatus(players: Int) -> String {
        players >= startRule.minimumPlayers ? String(format: `_`("%d players are ready."), players)
                                            : `_`("Waiting for other players…")
    }
}
