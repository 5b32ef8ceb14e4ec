import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Team Sketch on the join and lobby screens.
struct SketchLobbyUI: ActivityLobbyUI {
    var entry: ActivityEntry { ActivityCatalogue.teamSketch }

    var joinTitle: String { `_`("Join a sketch") }
    var lookingNearby: String { `_`("Looking for sketches nearby…") }
    var codeFieldName: String { `_`("Code or address of the session") }

    func makeJoiner(nav: any Navigator, lan: LanEnvironment) -> any LobbySession { SketchSession(nav: nav, lan: lan) }

    /// The sketch's name, guides and time limit.
    func waitingSummary(_ lobby: Lobby) -> String {
        let p = lobby.params
        let guides = [LineGuides.none: `_`("Plain"), .squared: `_`("Squared"), .lined: `_`("Lined")][p.guides] ?? ""
        let time = p.timeLimitMinutes > 0 ? String(format: _n("%d minute", "%d minutes", p.timeLimitMinutes), p.timeLimitMinutes) : `_`("no time limit")
        return "«\(p.name)» · \(guides) · \(time)"
    }

    var wording: SessionWording {
        SessionWording(letIn: Self.letIn,
                       full: `_`("This sketch already has four painters."),
                       wrongVersion: `_`("This Teamsketch is too old or too new for that session."),
                       alreadyOver: `_`("That session has ended."),
                       lobbyFull: `_`("The lobby is full. Try again soon."),
                       sentAway: `_`("The host said no this time."),
                       ended: `_`("The session has ended. Your sketch is saved."),
                       timeUp: `_`("Time is up! Your sketch is saved."),
                       hostLeft: `_`("The host left. Your sketch is saved on this device."))
    }

    func lobbyStatus(players: Int) -> String {
        players >= startRule.minimumPlayers ? String(format: `_`("%d painters are ready."), players)
                                            : `_`("Waiting for a second painter…")
    }
}
