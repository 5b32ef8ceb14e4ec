import Foundation
import LearnWordPost

/// What a Buchstaben Post session tells its screen, on the session's event
/// loop and in order (hop to the main actor from there), alike for the host
/// and members.
public enum WordPostEvent: Hashable, Sendable {
    case lobbyChanged(Lobby)
    /// A member's drawn picture (PNG, unchecked: decode it only after
    /// `AvatarPNG.isAcceptable`). The host hears a joiner's own with its
    /// hello; everyone gets accepted members' (the host's too) from the host.
    case avatar(member: MemberIndex, png: [UInt8])
    /// Members: this device is in, as `index` (its `PlayerID` once started).
    case accepted(index: MemberIndex)
    /// Members: sent away; the connection is closed.
    case declined(DeclineReason)
    /// The host's game after an action (or the whole game for a joiner or a
    /// rejoiner, with no effects; or unchanged with `rejected` for a move the
    /// host refused). Show this state; play the effects.
    case gameChanged(WordPostGame, effects: [WordPostEffect])
    /// A member's connection went away; it has the rejoin window to return
    /// before the host hands its letters to the others.
    case memberLeft(MemberIndex)
    /// The session is over (the game's own end reason is in the last state).
    case ended(EndReason)
    /// Members: the connection broke; rejoining is under way.
    case connectionLost(reason: String)
    /// Host: a connection was closed (bad frames, too slow, …).
    case connectionDropped(member: MemberIndex?, reason: String)
    /// A local action was refused (e.g. starting twice).
    case refused(String)
    /// Members: the host's game could not be read several times in a row,
    /// so this device left rather than rejoin for ever.
    case gaveUp(reason: String)
}
