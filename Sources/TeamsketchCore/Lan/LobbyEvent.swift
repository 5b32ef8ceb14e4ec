import LearnModel

/// What every activity's session says about its lobby, in the lobby's
/// terms: the session's own events (`SessionEvent`, `WordPostEvent`) map
/// onto these, and the rest is the activity's.
public enum LobbyEvent: Equatable, Sendable {
    case lobbyChanged(Lobby)
    /// A member's drawn picture as it came from the network (unchecked).
    case avatar(member: MemberIndex, png: [UInt8])
    /// This device was let in, as this member.
    case accepted(MemberIndex)
    /// This device was sent away.
    case declined(DeclineReason)
    case ended(EndReason)
}

extension LobbyEvent {
    /// The lobby's part of a sketch session's event, if it has one.
    public init?(_ event: SessionEvent) {
        switch event {
        case .lobbyChanged(let l): self = .lobbyChanged(l)
        case .avatar(let m, let png): self = .avatar(member: m, png: png)
        case .accepted(let index, _, _): self = .accepted(index)
        case .declined(let reason): self = .declined(reason)
        case .ended(let reason): self = .ended(reason)
        default: return nil
        }
    }

    /// The lobby's part of a Buchstaben Post session's event, if it has one.
    public init?(_ event: WordPostEvent) {
        switch event {
        case .lobbyChanged(let l): self = .lobbyChanged(l)
        case .avatar(let m, let png): self = .avatar(member: m, png: png)
        case .accepted(let index): self = .accepted(index)
        case .declined(let reason): self = .declined(reason)
        case .ended(let reason): self = .ended(reason)
        default: return nil
        }
    }
}
