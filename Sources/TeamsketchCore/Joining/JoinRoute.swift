import LearnModel
import LearnNet

/// One way to reach a session: straight to the host's address on this
/// network, or through the school server's relay.
public enum JoinRoute: Sendable, Hashable {
    case direct(SessionAddress)
    case relay(RelayRoute)

    public var isRelay: Bool { if case .relay = self { true } else { false } }
}

extension SessionClient.Configuration {
    /// A member's configuration for one way in. Through the relay, host and
    /// port name the school server, for messages only.
    public init(route: JoinRoute, name: String, role: PeerRole) {
        switch route {
        case .direct(let address):
            self.init(host: address.host, port: address.port, name: name, role: role)
        case .relay(let relay):
            self.init(host: relay.endpoint.host, port: relay.endpoint.port, name: name, role: role)
            self.relay = relay
        }
    }
}
