import Foundation
import LearnModel
import TeamsketchCore

/// One LAN session of any activity, as the lobby and join screens use it:
/// its lobby is the core's `LobbyController` (the same for every
/// activity); joining and finishing are the activity's, and so are its
/// words and start rule (`activityUI`).
@MainActor
protocol LobbySession: AnyObject {
    var room: LobbyController { get }
    var activityUI: any ActivityLobbyUI { get }
    func join(route: JoinRoute, name: String, role: PeerRole) async throws
    /// Ends the session for everyone (host) or leaves it (member).
    func finish() async
}

extension LobbySession {
    var lobby: Lobby? { room.lobby }
    var myIndex: MemberIndex? { room.myIndex }
    var ended: EndReason? { room.ended }
    var isHost: Bool { room.isHost }
    var hostPort: Int? { room.hostPort }
    var onLobby: ((Lobby) -> Void)? {
        get { room.onLobby }
        set { room.onLobby = newValue }
    }
    var onStatus: ((String) -> Void)? {
        get { room.onStatus }
        set { room.onStatus = newValue }
    }
    func avatar(of m: MemberIndex) -> [UInt8]? { room.avatar(of: m) }
    func accept(_ m: MemberIndex) { room.accept(m) }
    func decline(_ m: MemberIndex) { room.decline(m) }
    func declineAllWaiting() { room.declineAllWaiting() }
    func start() { room.start() }
}
