import LearnSession
/// A nearby session as the lobby shows it: the merge of everything every
/// mechanism reported for one session id from one source address (a copy
/// of the id from another address is a card of its own).
public struct DiscoveredSession: Sendable, Hashable, Identifiable {
    public var sessionID: String
    /// The card's name: the session id for the first source that announced
    /// it, "id@source" for a copy from elsewhere.
    public var cardID: String
    /// The announcing address, or `DiscoveryList.localSource` for this device.
    public var source: String
    public var hostName: String
    public var activity: SessionActivity
    public var address: SessionAddress
    public var protocolVersion: Int
    public var lobbyOpen: Bool
    /// The host's class, if its announcement names one.
    public var classTag: ClassTag?
    /// Every mechanism that currently sees the session.
    public var mechanisms: Set<DiscoveryMechanism>
    public var lastSeen: ContinuousClock.Instant

    public var id: String { cardID }

    /// Whether another address announced this session id first: a copy, or
    /// a session reached on a second network of the same host.
    public var isCopy: Bool { cardID != sessionID }

    /// The pictures and colour the host's lobby shows for this session id.
    public var sign: SessionSign { SessionSign(sessionID: sessionID) }

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
