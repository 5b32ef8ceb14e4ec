import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// One Buchstaben Post game on the LAN seen from this device: its lobby
/// (`LobbyController`, as for every activity), the moves going to the
/// authoritative host (`WordPostMoves`), and the game screen showing each
/// new state and playing its effects. Events arrive in order on the main
/// actor. Only the host records stats, so no round counts twice.
@MainActor
final class WordPostSession: LobbySession {
    let room: LobbyController
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    private var moves: WordPostMoves?
    private weak var screen: WordPostScreen?
    let activityUI: any ActivityLobbyUI

    init(nav: any Navigator, lan: LanEnvironment) {
        self.nav = nav
        self.lan = lan
        let ui = WordPostLobbyUI()
        activityUI = ui
        room = LobbyController(wording: ui.wording, ownAvatar: { lan.ownAvatar },
                               withdraw: { lan.discovery.withdraw() })
    }

    private func eventSink() -> @Sendable (WordPostEvent) -> Void {
        MainActorEvents.sink { [weak self] in self?.handle($0) }
    }

    func host(pool: WordPool, name: String, previouslyFinished: Set<String>) async throws {
        // Checked before the lobby opens, so the message is the host's words.
        if let problem = WordPoolLimits.problem(in: pool) { throw WordPoolTooBig(problem: problem) }
        let request = LanSessions.GameHosting(seat: lan.seat(named: name), pool: pool,
                                              soundsOn: lan.preferences.soundsChoiceForOthers,
                                              previouslyFinished: previouslyFinished)
        let (lobby, moves) = try await lan.sessions.hostGame(request, eventSink())
        self.moves = moves
        await room.hosting(lobby)
    }

    func join(route: JoinRoute, name: String, role: PeerRole) async throws {
        let request = LanSessions.Joining(seat: lan.seat(named: name), route: route, role: role)
        let (lobby, moves) = try await lan.sessions.joinGame(request, eventSink())
        self.moves = moves
        room.joined(lobby)
    }

    func finish() async {
        moves = nil
        await room.finish()
    }

    /// Where the screen's intents go.
    private var gameLink: WordPostScreen.GameLink {
        WordPostScreen.GameLink(
            place: { [weak self] letter, slot in self?.moves?.place(letter, slot) },
            send: { [weak self] letter, to in self?.moves?.send(letter, to) },
            nextRound: room.isHost ? { [weak self] in self?.moves?.nextRound?() } : nil,
            end: { [weak self] in Task { @MainActor in await self?.finish() } })
    }

    private func handle(_ event: WordPostEvent) {
        if let lobbyEvent = LobbyEvent(event) { room.handle(lobbyEvent) }
        switch event {
        case .lobbyChanged(let l):
            screen?.names = names(l)
        case .avatar:
            screen?.board.setPictures(room.pictures)
        case .gameChanged(let game, let effects):
            if let screen {
                screen.show(game, effects: effects)
            } else if let me = room.myIndex {
                lan.discovery.stop()
                // The host's classroom decides for every device, unless the
                // environment fixes sounds on this machine.
                let s = lan.openGame(game, me, room.lobby.map(names) ?? [:], gameLink, room.isHost,
                                     lan.preferences.soundsOn(hostChoice: room.lobby?.wordPost?.soundsOn))
                s.board.setPictures(room.pictures)
                screen = s
            }
        case .memberLeft(let index):
            if let name = room.lobby?.member(index)?.name {
                screen?.showNotice(String(format: `_`("%@ left the game. Their letters go to the others."), name))
            }
        case .ended(let reason):
            screen?.showNotice(activityUI.wording.text(for: reason))
        case .connectionLost:
            screen?.showNotice(`_`("The connection was lost. Trying again…"))
        case .gaveUp:
            let text = `_`("The game does not work here right now. Please join again.")
            screen?.showNotice(text)
            room.gaveUp(saying: text)
        case .accepted, .declined, .connectionDropped, .refused:
            break
        }
    }

    private func names(_ l: Lobby) -> [PlayerID: String] {
        Dictionary(l.members.map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a })
    }
}
