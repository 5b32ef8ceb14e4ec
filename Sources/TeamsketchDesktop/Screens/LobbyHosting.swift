import Foundation
import LearnModel
import LearnNet
import TeamsketchCore

/// What the host's lobby screen needs from a session, whichever activity it
/// runs: Team Sketch (`SessionController`), Buchstaben Post
/// (`WordPostController`) or any other. The activity's words and its start
/// rule come with it (`activityUI`).
@MainActor
protocol LobbyHosting: AnyObject {
    var lobby: Lobby? { get }
    var onLobby: ((Lobby) -> Void)? { get set }
    var hostPort: Int? { get }
    var activityUI: any ActivityLobbyUI { get }
    /// The picture a member drew of themselves, when it has arrived.
    func avatar(of m: MemberIndex) -> [UInt8]?
    func accept(_ m: MemberIndex)
    func decline(_ m: MemberIndex)
    /// Sends away everyone still waiting, in one click (a flood of strangers).
    func declineAllWaiting()
    func start()
    func finish() async
    /// The session service underneath, while hosting.
    var sessionHost: SessionHost? { get }
    /// The offer through the school server, while one runs; cancelled by `finish`.
    var relayOffer: Task<Void, Never>? { get set }
}

/// How the offer through the school server stands, as the lobby shows it.
enum RelayListing: Equatable {
    case listed
    /// Not listed now; offered again by itself.
    case retrying
    /// The server said no; asking again would not change that.
    case refused

    init(_ state: RelayOfferState) {
        switch state {
        case .listed: self = .listed
        case .retrying: self = .retrying
        case .refused: self = .refused
        }
    }
}

extension LobbyHosting {
    /// Offers the session through the school server `signIn` is at, for as
    /// long as it runs (offered again after the server comes back);
    /// `onChange` tells the lobby whether it is listed.
    func offerThroughSchool(as signIn: SchoolSignIn, classID: UUID?,
                            onChange: @escaping @MainActor (RelayListing) -> Void) {
        guard let endpoint = signIn.relayEndpoint, let host = sessionHost, let lobby, relayOffer == nil else { return }
        relayOffer = host.keepRelayed(through: endpoint, sessionName: lobby.params.name, classID: classID) { state in
            Task { @MainActor in
                onChange(RelayListing(state))
                // For people and scripts reading the log (the UI tests wait for it).
                FileHandle.standardError.write(Data("relay offer: \(state)\n".utf8))
            }
        }
    }
}

extension SessionController: LobbyHosting {
    var hostPort: Int? { if case .host(let h) = link { h.port } else { nil } }
    var activityUI: any ActivityLobbyUI { SketchLobbyUI() }
    var sessionHost: SessionHost? { if case .host(let h) = link { h } else { nil } }
}

/// What the join screen needs from a session it joins.
@MainActor
protocol LobbyJoining: AnyObject {
    var onLobby: ((Lobby) -> Void)? { get set }
    var onStatus: ((String) -> Void)? { get set }
    var myIndex: MemberIndex? { get }
    var ended: EndReason? { get }
    func avatar(of m: MemberIndex) -> [UInt8]?
    func join(route: JoinRoute, name: String, role: PeerRole) async throws
    func finish() async
}

extension SessionController: LobbyJoining {}
