import Foundation
import LearnModel
import TeamsketchCore

/// What the LAN screens (the host's lobby, joining) and their session
/// controllers use of the app, built by the shell:
/// finding and announcing sessions, this device's pupil, the school
/// sign-in and what the school server relays, opening sessions, keeping
/// shared sketches, and where a started session's screen opens.
@MainActor
struct LanEnvironment {
    let discovery: DiscoveryService
    let preferences: DevicePreferences
    /// Opening and joining sessions on the network.
    let sessions: LanSessions
    /// Keeps a shared sketch on this device as it is drawn; what could not
    /// be saved goes to the closure given.
    let keepSharedSketch: SharedSketchKeeper.Make
    /// Who is signed in to the school server now (a class's tag, its relay
    /// and the watch key go with a session).
    var signIn: @MainActor () -> SchoolSignIn?
    /// The sessions the school server relays for this sign-in.
    var relayedSessions: @MainActor () async -> [RelayedSession]
    /// Whether a hosted session is offered through the school server, and
    /// to which class.
    var relayOfferPlan: @MainActor () async -> RelayOfferPlan
    /// This device's address on the room's network, for the lobby to show.
    var ownAddress: @MainActor () -> String
    /// A nearby host's picture for its card (a peek that never joins); nil
    /// from an older host, or one without a picture.
    var hostPicture: @MainActor (_ host: String, _ port: Int) async -> [UInt8]?
    /// The name typed when joining is the pupil's from now on.
    var rename: @MainActor (String) -> Void
    /// The shared canvas, once a sketch session starts.
    var openSketch: @MainActor (SketchSession, SketchMeta) -> Void
    /// The game screen of a team game, once its first state arrives.
    var openGame: @MainActor (_ game: WordPostGame, _ me: PlayerID, _ names: [PlayerID: String],
                   _ link: WordPostScreen.GameLink, _ isHost: Bool, _ soundsOn: Bool) -> WordPostScreen

    /// The school account this device's strokes and results belong to.
    var schoolAccount: UUID? { signIn()?.accountID.uuid }
    /// The picture this device's pupil drew, sent with the hello.
    var ownAvatar: [UInt8]? { preferences.profile.avatarPNG.map { [UInt8]($0) } }

    /// Who this device is in a session it opens or joins, under `name`.
    func seat(named name: String) -> LanSessions.Seat {
        LanSessions.Seat(name: name, avatar: ownAvatar, account: schoolAccount)
    }
}
