/// One mechanism's report of one session at one address: a beacon packet,
/// a resolved DNS-SD service, or a session reached by a typed code.
public struct DiscoveryFinding: Sendable, Hashable {
    public var mechanism: DiscoveryMechanism
    public var announcement: SessionAnnouncement
    /// The host as the mechanism saw it (beacon source, resolved address);
    /// the port is the announced one.
    public var host: String
    /// Monotonic, so expiry is immune to wall-clock steps.
    public var seen: ContinuousClock.Instant

    public init(mechanism: DiscoveryMechanism, announcement: SessionAnnouncement, host: String,
                seen: ContinuousClock.Instant) {
        self.mechanism = mechanism
        self.announcement = announcement
        self.host = host
        self.seen = seen
    }

    public var address: SessionAddress { SessionAddress(host: host, port: announcement.port) }
}
