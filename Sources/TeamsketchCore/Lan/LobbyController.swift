import Foundation
import LearnModel

/// The lobby of one LAN session seen from this device, for every activity:
/// who asked to join and who is in, this device's place, the members'
/// pictures, the offer through the school server, how it ended. The
/// activity's controller feeds it the lobby's events (`LobbyEvent`) and
/// keeps the rest (strokes, a game) to itself; the lobby screens only read
/// it and call its actions.
@MainActor
public final class LobbyController {
    public private(set) var lobby: Lobby?
    /// This device's member index, once hosting or let in.
    public private(set) var myIndex: MemberIndex?
    public private(set) var ended: EndReason?
    /// The session underneath, from hosting or joining until `finish`.
    public private(set) var link: LobbyLink?
    /// The screen showing the lobby now (the host's lobby, then its canvas).
    public var onLobby: ((Lobby) -> Void)?
    /// What a joiner is told (let in, sent away, the end), in the activity's words.
    public var onStatus: ((String) -> Void)?

    private let wording: SessionWording
    private let ownAvatar: @MainActor () -> [UInt8]?
    /// Stops announcing this device's session on the network.
    private let withdraw: @MainActor () -> Void
    private var avatars: [MemberIndex: [UInt8]] = [:]
    private var relayOffer: Task<Void, Never>?

    public init(wording: SessionWording, ownAvatar: @escaping @MainActor () -> [UInt8]?,
                withdraw: @escaping @MainActor () -> Void) {
        self.wording = wording
        self.ownAvatar = ownAvatar
        self.withdraw = withdraw
    }

    public var isHost: Bool { link?.port != nil }
    public var hostPort: Int? { link?.port }

    /// The picture a member drew of themselves, once it arrived (this
    /// device's own at once).
    public func avatar(of m: MemberIndex) -> [UInt8]? {
        avatars[m] ?? (m == myIndex ? ownAvatar() : nil)
    }

    /// Everyone's picture known so far, this device's own included.
    public var pictures: [MemberIndex: [UInt8]] {
        var all = avatars
        if let me = myIndex { all[me] = avatar(of: me) }
        return all
    }

    /// This device hosts the session: it is member 0 and shows the lobby at once.
    public func hosting(_ link: LobbyLink) async {
        self.link = link
        myIndex = 0
        lobby = await link.lobby()
        if let lobby { onLobby?(lobby) }
    }

    /// This device asked to join; its place comes with `.accepted`.
    public func joined(_ link: LobbyLink) {
        self.link = link
    }

    public func accept(_ m: MemberIndex) { link?.accept(m) }
    public func decline(_ m: MemberIndex) { link?.decline(m) }
    public func declineAllWaiting() { link?.declineAllWaiting() }
    public func start() { link?.start() }

    /// Ends the session for everyone (host) or leaves it (member); stops
    /// announcing it and offering it through the school server.
    public func finish() async {
        if isHost { withdraw() }
        relayOffer?.cancel()
        relayOffer = nil
        let link = self.link
        self.link = nil
        await link?.finish()
    }

    /// Offers the hosted session through the school server `signIn` is at,
    /// once, for as long as it runs; `onChange` says whether it is listed.
    public func offerThroughSchool(as signIn: SchoolSignIn, classID: SchoolClassID?,
                                   onChange: @escaping @MainActor (RelayOfferStatus) -> Void) {
        guard let endpoint = signIn.relayEndpoint, let offer = link?.offerThroughSchool, let lobby,
              relayOffer == nil else { return }
        relayOffer = offer(endpoint, lobby.params.name, classID) { status, detail in
            Task { @MainActor in
                onChange(status)
                // For people and scripts reading the log: the UI tests wait
                // for it, then look at the lobby, which shows it by now.
                FileHandle.standardError.write(Data("relay offer: \(detail)\n".utf8))
            }
        }
    }

    public func handle(_ event: LobbyEvent) {
        switch event {
        case .lobbyChanged(let l):
            lobby = l
            // Who left the lobby for good (declined, gave up waiting) takes
            // their picture along: a flood of strangers' hellos must not
            // pile up 64 KiB each here.
            avatars = avatars.filter { l.member($0.key) != nil }
            onLobby?(l)
        case .avatar(let member, let png):
            // Kept only if it passes the checks (it came from the network).
            guard AvatarPNG.isAcceptable(png) else { return }
            avatars[member] = png
            if let lobby { onLobby?(lobby) }
        case .accepted(let index):
            myIndex = index
            onStatus?(wording.letIn)
        case .declined(let reason):
            ended = .hostEnded
            onStatus?(wording.text(for: reason))
        case .ended(let reason):
            ended = reason
            if isHost { withdraw() }
            onStatus?(wording.text(for: reason))
        }
    }

    /// This device left on its own (a member whose session stopped
    /// working), saying why.
    public func gaveUp(saying text: String) {
        ended = .hostLeft
        onStatus?(text)
    }
}
