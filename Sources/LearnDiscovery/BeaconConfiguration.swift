/// Where and how often beacons go. The standard values are documented in
/// docs/PROTOCOL.md; tests use `loopback(port:)` and short intervals.
public struct BeaconConfiguration: Sendable, Hashable {
    /// The fixed UDP port every app listens on (not in BACnet's 47808–47823).
    public static let standardPort = 47850
    /// Link-local (never routed), from the unassigned 224.0.0.151–250 run of
    /// IANA's Local Network Control Block. Switches flood 224.0.0.0/24 even
    /// with IGMP snooping on, which is why this beats a 239.x group.
    public static let standardGroup = "224.0.0.198"
    /// Loopback's broadcast address: reaches every app on this machine even
    /// with no network at all.
    public static let loopbackBroadcast = "127.255.255.255"

    public var port: Int
    /// nil: no multicast.
    public var multicastGroup: String?
    /// IPv4 addresses of the interfaces to use for multicast. nil: the
    /// listener joins on every multicast-capable interface and the announcer
    /// sends by the routing table.
    public var multicastInterfaces: [String]?
    /// nil: every interface's directed broadcast address plus
    /// 127.255.255.255. Directed (not 255.255.255.255) so a laptop on Wi-Fi
    /// and Ethernet reaches both.
    public var broadcastAddresses: [String]?
    /// Beacons right after a lobby opens or changes, so others see it in
    /// well under the 2 s the spec allows even if one packet is lost.
    public var burstCount: Int
    public var burstInterval: Duration
    public var interval: Duration
    /// Listeners forget a host after this many beacons in a row are missed.
    public var missedBeforeExpiry: Int
    /// Whether a listener shares its port with other apps' listeners
    /// (SO_REUSEADDR, SO_REUSEPORT), so every app on a machine hears the
    /// beacons on the fixed port. A listener on port 0 (tests) wants a port
    /// of its own: Linux may give a sharing socket bound to port 0 a port
    /// another sharing socket holds, and the two then split each other's
    /// datagrams.
    public var sharesPort: Bool

    public init(port: Int = standardPort, multicastGroup: String? = standardGroup,
                multicastInterfaces: [String]? = nil, broadcastAddresses: [String]? = nil,
                burstCount: Int = 3, burstInterval: Duration = .milliseconds(200),
                interval: Duration = .seconds(2), missedBeforeExpiry: Int = 3, sharesPort: Bool = true) {
        self.port = port
        self.multicastGroup = multicastGroup
        self.multicastInterfaces = multicastInterfaces
        self.broadcastAddresses = broadcastAddresses
        self.burstCount = burstCount
        self.burstInterval = burstInterval
        self.interval = interval
        self.missedBeforeExpiry = missedBeforeExpiry
        self.sharesPort = sharesPort
    }

    public static let standard = BeaconConfiguration()

    /// Everything on 127.0.0.1: multicast via the loopback interface and
    /// broadcast to 127.255.255.255. Two processes on one machine hear each
    /// other this way (a unicast to 127.0.0.1 would reach only one of them).
    /// On port 0 the listener's port is its own unless `sharesPort` says so.
    public static func loopback(port: Int, interval: Duration = .seconds(2), sharesPort: Bool? = nil) -> BeaconConfiguration {
        BeaconConfiguration(port: port, multicastInterfaces: ["127.0.0.1"],
                            broadcastAddresses: [loopbackBroadcast], interval: interval,
                            sharesPort: sharesPort ?? (port != 0))
    }

    /// How long a beacon finding lives: the missed beacons plus half an
    /// interval of slack for jitter.
    public var lifetime: Duration { interval * missedBeforeExpiry + interval / 2 }
}
