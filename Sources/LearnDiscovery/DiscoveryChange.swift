/// What a `DiscoveryList` operation changed, for CLI output and for telling
/// the lobby to redraw only when something visible changed.
public enum DiscoveryChange: Sendable, Hashable {
    /// A mechanism sees a session it did not see before (maybe the session
    /// is new altogether).
    case found(sessionID: String, mechanism: DiscoveryMechanism)
    /// A visible field changed: name, address, open/closed, activity, version.
    case updated(sessionID: String)
    /// A mechanism no longer sees the session (expired, removed, gone).
    case lost(sessionID: String, mechanism: DiscoveryMechanism)
}
