import CGtk
import LearnModel
import TeamsketchCore

/// What the join and lobby screens show and do for one activity, so those
/// screens serve every activity unchanged: a new activity brings its own
/// conformance (its words, its session, its waiting summary) and passes
/// it to `Navigator.showJoin(activity:)` / its `LobbySession`.
/// Who may start is the activity's `StartRule`, not decided here.
@MainActor
protocol ActivityLobbyUI {
    /// Which activity: its kind and who may start it are the catalogue's.
    var entry: ActivityEntry { get }

    /// The join screen's title ("Join a sketch").
    var joinTitle: String { get }
    /// Shown while nothing is found nearby.
    var lookingNearby: String { get }
    /// The accessible name of the code field.
    var codeFieldName: String { get }
    /// A new session of this activity, for joining one.
    func makeJoiner(nav: any Navigator, lan: LanEnvironment) -> any LobbySession
    /// What a joiner sees about the session while waiting for the start.
    func waitingSummary(_ lobby: Lobby) -> String

    /// What a joiner is told when let in, sent away or when the session
    /// ends, in this activity's words.
    var wording: SessionWording { get }

    /// The host's lobby line: how many are ready, or who is still missing.
    func lobbyStatus(players: Int) -> String
}

extension ActivityLobbyUI {
    /// Said to a joiner the host let in, whatever the activity.
    static var letIn: String { `_`("You are in! Waiting for the host to start…") }

    var kind: SessionActivity { entry.kind }
    var startRule: StartRule { entry.startRule }
}
