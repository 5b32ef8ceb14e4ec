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
