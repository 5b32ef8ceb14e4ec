import NIOCore
import NIOPosix
import LearnModel

/// This machine's IPv4 interfaces, as discovery needs them.
public struct LocalInterfaces: Sendable {
    public struct Interface: Sendable, Hashable {
        public var name: String
        public var address: IPv4Address
        public var broadcast: IPv4Address?
        public var multicast: Bool
    }

    public var interfaces: [Interface]

    public init(interfaces: [Interface]) {
        self.interfaces = interfaces
    }

    /// A snapshot; interfaces come and go (Wi-Fi), so callers re-read it.
    public static func current() -> LocalInterfaces {
        let devices = (try? System.enumerateDevices()) ?? []
        return LocalInterfaces(interfaces: devices.compactMap { d in
            guard case .v4? = d.address, let ip = d.address?.ipAddress.flatMap(IPv4Address.init) else { return nil }
            let broadcast = d.broadcastAddress?.ipAddress.flatMap(IPv4Address.init)
            return Interface(name: d.name, address: ip, broadcast: broadcast, multicast: d.multicastSupported)
        })
    }

    /// Addresses to complete a join code with.
    public var addresses: [IPv4Address] { interfaces.map(\.address) }

    /// The first non-loopback address: the one a host's join code is made
    /// from, falling back to 127.0.0.1.
    public var primaryAddress: IPv4Address {
        interfaces.first { !$0.address.isLoopback }?.address ?? IPv4Address(127, 0, 0, 1)
    }
}
