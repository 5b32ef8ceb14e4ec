/// What a beacon listener hears.
public enum BeaconEvent: Sendable, Hashable {
    /// A valid announce beacon; `host` is the packet's source address.
    case heard(DiscoveryFinding)
    /// The host withdrew its session.
    case goodbye(sessionID: String, host: String)
}
