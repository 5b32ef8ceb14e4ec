/// A nearby session as the lobby shows it: the merge of everything every
/// mechanism reported for one session id.
public struct DiscoveredSession: Sendable, Hashable, Identifiable {
    public var sessionID: String
    public var hostName: String
    public var activity: SessionActivity
    public var address: SessionAddress
    public var protocolVersion: Int
    public var lobbyOpen: Bool
    /// Every mechanism that currently sees the session.
    public var mechanisms: Set<DiscoveryMechanism>
    public var lastSeen: ContinuousClock.Instant

    public var id: String { sessionID }

    /// The code for this session's address, when it has one (IPv4 host on a
    /// session port).
    public var joinCode: JoinCode? {
        address.ipv4.flatMap { JoinCode(host: $0, port: address.port) }
    }

    /// Whether this app can join: an older or newer session protocol can't.
    public var isCompatible: Bool { protocolVersion == SessionAnnouncement.currentProtocolVersion }

    /// Mechanisms in display order ("dnssd,beacon").
    public var mechanismList: [DiscoveryMechanism] { mechanisms.sorted() }
}
