import CGtk
import Foundation
import LearnModel

/// Team Sketch on the join and lobby screens.
struct SketchLobbyUI: ActivityLobbyUI {
    var kind: SessionActivity { SketchActivity.kind }
    var startRule: StartRule { SketchActivity.startRule }

    var joinTitle: String { `_`("Join a sketch") }
    var lookingNearby: String { `_`("Looking for sketches nearby…") }
    var codeFieldName: String { `_`("Code or address of the session") }

    func makeJoiner(app: TeamsketchApp) -> any LobbyJoining { SessionController(app: app) }

    /// The sketch's name, guides and time limit.
    func waitingSummary(_ lobby: Lobby) -> String {
        let p = lobby.params
        let guides = [LineGuides.none: `_`("Plain"), .squared: `_`("Squared"), .lined: `_`("Lined")][p.guides] ?? ""
        let time = p.timeLimitMinutes > 0 ? String(format: `_`("%d minutes"), p.timeLimitMinutes) : `_`("no time limit")
        return "«\(p.name)» · \(guides) · \(time)"
    }

    func lobbyStatus(players: Int) -> String {
        players >= startRule.minimumPlayers ? String(format: `_`("%d painters are ready."), players)
                                            : `_`("Waiting for a second painter…")
    }

    /// A sketch's rule never lets it start alone, so the lobby never asks;
    /// should that rule change, starting goes ahead without a question.
    func confirmPlayingAlone(parent: Widget?, then play: @escaping @MainActor () -> Void) { play() }
}
