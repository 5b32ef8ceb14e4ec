/// Where a session's TCP listener is: what a joiner connects to.
public struct SessionAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address in dotted form, or a host name typed by hand.
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }

    /// The host as an IPv4 address, when it is one.
    public var ipv4: IPv4Address? { IPv4Address(host) }

    var isLoopback: Bool { ipv4?.isLoopback ?? (host == "localhost") }
}
