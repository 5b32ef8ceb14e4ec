import CGtk
import Foundation
import LearnModel
import LearnNet
import TeamsketchCore

/// One Buchstaben Post session on the LAN seen from this device: the
/// authoritative host or a member. Its events reach the main actor in order
/// (one AsyncStream); the game screen shows each new state and plays its
/// effects. Only the host records stats, so no round counts twice.
@MainActor
final class WordPostController: LobbyHosting, LobbyJoining {
    enum Link {
        case host(WordPostHost)
        case member(WordPostClient)
    }

    private(set) var link: Link?
    var relayOffer: Task<Void, Never>?
    var sessionHost: SessionHost? { if case .host(let h) = link { h.session } else { nil } }
    private(set) var lobby: Lobby?
    private(set) var myIndex: MemberIndex?
    private(set) var ended: EndReason?
    var onLobby: ((Lobby) -> Void)?
    var onStatus: ((String) -> Void)?
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    private weak var screen: WordPostScreen?

    init(nav: any Navigator, lan: LanEnvironment) {
        self.nav = nav
        self.lan = lan
    }

    var isHost: Bool { if case .host = link { true } else { false } }
    var hostPort: Int? { if case .host(let h) = link { h.port } else { nil } }
    var activityUI: any ActivityLobbyUI { WordPostLobbyUI() }

    private func eventSink() -> @Sendable (WordPostEvent) -> Void {
        let (stream, continuation) = AsyncStream<WordPostEvent>.makeStream()
        Task { @MainActor [weak self] in
            for await event in stream { self?.handle(event) }
        }
        return { continuation.yield($0) }
    }

    /// Members' drawn pictures as they arrive from the session (a joiner's
    /// with its hello on the host; accepted members' from the host on every
    /// device), only those that pass `AvatarPNG`'s checks.
    private var avatars: [MemberIndex: [UInt8]] = [:]

    /// The picture a member drew of themselves: for the lobby rows, the
    /// host's face on the join screen and the trains in the game.
    func avatar(of m: MemberIndex) -> [UInt8]? {
        avatars[m] ?? (m == myIndex ? lan.ownAvatar : nil)
    }


    /// Everyone's picture known so far, by player, for the trains.
    private var pictures: [PlayerID: [UInt8]] {
        var all = avatars
        if let me = myIndex, all[me] == nil, let own = lan.ownAvatar { all[me] = own }
        return all
    }

    func host(pool: WordPool, name: String, previouslyFinished: Set<String>) async throws {
        var config = WordPostHost.Configuration(name: name, pool: pool)
        config.soundsOn = lan.preferences.soundsChoiceForOthers
        config.session.avatarPNG = lan.ownAvatar
        config.previouslyFinished = previouslyFinished
        // Checked here too, so the message is the person's words whoever calls.
        if let problem = WordPoolLimits.problem(in: pool) { throw WordPoolTooBig(problem: problem) }
        let onEvent = eventSink()
        let host = try await PortSelection.firstFree { [config] port in
            var c = config
            c.session.port = port
            return try await WordPostHost.start(c, onEvent: onEvent)
        }
        link = .host(host)
        myIndex = 0
        lobby = await host.lobby()
        if let lobby { onLobby?(lobby) }
    }

    func join(route: JoinRoute, name: String, role: PeerRole) async throws {
        var config = WordPostClient.Configuration(host: "", port: 0, name: name, role: role)
        config.session = SessionClient.Configuration(route: route, name: name, role: role)
        config.session.avatarPNG = lan.ownAvatar
        link = .member(try await WordPostClient.connect(config, onEvent: eventSink()))
    }

    func accept(_ m: MemberIndex) { if case .host(let h) = link { h.accept(m) } }
    func decline(_ m: MemberIndex) { if case .host(let h) = link { h.decline(m) } }
    func declineAllWaiting() { if case .host(let h) = link { h.declineAllWaiting() } }
    func start() { if case .host(let h) = link { h.startGame() } }

    func finish() async {
        if isHost { lan.discovery.withdraw() }
        relayOffer?.cancel()
        relayOffer = nil
        switch link {
        case .host(let h):
            h.endGame()
            await h.shutdown()
        case .member(let c): await c.leave()
        case nil: break
        }
        link = nil
    }

    /// Where the screen's intents go.
    private var gameLink: WordPostScreen.GameLink {
        WordPostScreen.GameLink(
            place: { [weak self] letter, slot in
                switch self?.link {
                case .host(let h): h.place(letter: letter, slot: slot)
                case .member(let c): c.place(letter: letter, slot: slot)
                case nil: break
                }
            },
            send: { [weak self] letter, to in
                switch self?.link {
                case .host(let h): h.send(letter: letter, to: to)
                case .member(let c): c.send(letter: letter, to: to)
                case nil: break
                }
            },
            nextRound: isHost ? { [weak self] in if case .host(let h) = self?.link { h.nextRound() } } : nil,
            end: { [weak self] in Task { @MainActor in await self?.finish() } })
    }

    private func handle(_ event: WordPostEvent) {
        switch event {
        case .lobbyChanged(let l):
            lobby = l
            // Who left the lobby for good (declined, gave up waiting) takes
            // their picture along: a flood of strangers' hellos must not
            // pile up 64 KiB each here.
            avatars = avatars.filter { l.member($0.key) != nil }
            onLobby?(l)
            screen?.names = names(l)
        case .avatar(let member, let png):
            // Shown only if it passes the checks (it came from the network).
            guard AvatarPNG.isAcceptable(png) else { break }
            avatars[member] = png
            if let lobby { onLobby?(lobby) }
            screen?.board.setPictures(pictures)
        case .accepted(let index):
            myIndex = index
            onStatus?(`_`("You are in! Waiting for the host to start…"))
        case .declined(let reason):
            ended = .hostEnded
            onStatus?(activityUI.wording.text(for: reason))
        case .gameChanged(let game, let effects):
            if let screen {
                screen.show(game, effects: effects)
            } else if let me = myIndex {
                lan.discovery.stop()
                // The host's classroom decides for every device, unless the
                // environment fixes sounds on this machine.
                let s = lan.openGame(game, me, lobby.map(names) ?? [:], gameLink, isHost,
                                     lan.preferences.soundsOn(hostChoice: lobby?.wordPost?.soundsOn))
                s.board.setPictures(pictures)
                screen = s
            }
        case .memberLeft(let index):
            if let name = lobby?.member(index)?.name {
                screen?.showNotice(String(format: `_`("%@ left the game. Their letters go to the others."), name))
            }
        case .ended(let reason):
            ended = reason
            if isHost { lan.discovery.withdraw() }
            screen?.showNotice(activityUI.wording.text(for: reason))
            onStatus?(activityUI.wording.text(for: reason))
        case .connectionLost:
            screen?.showNotice(`_`("The connection was lost. Trying again…"))
        case .gaveUp:
            ended = .hostLeft
            let text = `_`("The game does not work here right now. Please join again.")
            screen?.showNotice(text)
            onStatus?(text)
        case .connectionDropped, .refused:
            break
        }
    }

    private func names(_ l: Lobby) -> [PlayerID: String] {
        Dictionary(l.members.map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a })
    }
}
