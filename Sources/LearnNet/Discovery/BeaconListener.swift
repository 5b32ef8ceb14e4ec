import Foundation
import LearnModel
import NIOCore
import NIOPosix

/// Listens for beacons on the fixed UDP port and reports each valid one.
/// Expiry is not done here: the caller's `DiscoveryList` does it, so all
/// mechanisms age by the same rules.
///
/// The socket sets SO_REUSEADDR and SO_REUSEPORT (`sharesPort`) so several
/// apps on one machine can all listen; multicast and broadcast datagrams are delivered
/// to every such socket (a unicast one would reach only one of them).
public final class BeaconListener: @unchecked Sendable {
    public let configuration: BeaconConfiguration
    private let group: any EventLoopGroup
    private let onEvent: @Sendable (BeaconEvent) -> Void
    private let lock = NSLock()
    private var channel: (any Channel)?
    private var ignored = 0
    private var _status: MechanismStatus = .off

    public init(configuration: BeaconConfiguration = .standard,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                onEvent: @escaping @Sendable (BeaconEvent) -> Void) {
        self.configuration = configuration
        self.group = group
        self.onEvent = onEvent
    }

    /// Datagrams that were not valid beacons (garbage, other programs,
    /// future formats) — for diagnostics.
    public var ignoredPackets: Int { lock.withLock { ignored } }
    public var status: MechanismStatus { lock.withLock { _status } }

    /// The bound port; differs from the configured one only when that was 0.
    public var boundPort: Int? { lock.withLock { channel?.localAddress?.port } }

    /// Binds and joins the multicast group. Never throws: a failure is the
    /// returned status (port in use, permission, no multicast route).
    @discardableResult
    public func start() async -> MechanismStatus {
        if let ch = lock.withLock({ channel }), ch.isActive { return status }
        let handler = BeaconInboundHandler(listener: self)
        let shared = SocketOptionValue(configuration.sharesPort ? 1 : 0)
        let bootstrap = DatagramBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: shared)
            .channelOption(.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: shared)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let ch: any Channel
        do {
            ch = try await bootstrap.bind(host: "0.0.0.0", port: configuration.port).get()
        } catch {
            return setStatus(.unavailable(.socket(error, port: configuration.port)))
        }
        lock.withLock { channel = ch }
        return setStatus(await joinMulticast(ch))
    }

    public func stop() async {
        let ch = lock.withLock { () -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await ch?.close()
        setStatus(.off)
    }

    private func joinMulticast(_ ch: any Channel) async -> MechanismStatus {
        guard let groupText = configuration.multicastGroup, let groupIP = IPv4Address(groupText) else { return .running }
        let interfaces: [IPv4Address] = configuration.multicastInterfaces.map { $0.compactMap(IPv4Address.init) }
            ?? LocalInterfaces.current().interfaces.filter(\.multicast).map(\.address)
        guard let provider = ch as? any SocketOptionProvider else { return .limited(.noMulticastRoute) }
        var joined = 0
        var firstProblem: MechanismProblem?
        // Joined per interface address: INADDR_ANY would join only the
        // default route's interface, and fails outright without one.
        for address in Set(interfaces) {
            let request = ip_mreq(imr_multiaddr: groupIP.inAddr, imr_interface: address.inAddr)
            do {
                try await provider.unsafeSetSocketOption(level: .ip, name: .ip_add_membership, value: request).get()
                joined += 1
            } catch {
                firstProblem = firstProblem ?? .socket(error, port: configuration.port)
            }
        }
        // Still useful without multicast: broadcasts arrive anyway.
        if joined > 0 { return .running }
        return .limited(firstProblem == .permissionDenied ? .permissionDenied : .noMulticastRoute)
    }

    @discardableResult
    private func setStatus(_ s: MechanismStatus) -> MechanismStatus {
        lock.withLock { _status = s }
        return s
    }

    fileprivate func received(_ bytes: [UInt8], from source: SocketAddress) {
        // A source of 0.0.0.0 happens when a sender's route has no usable
        // source address (multicast over loopback without `src`): the host
        // exists but can't be reached at that address, so it isn't listed.
        guard let host = source.ipAddress, IPv4Address(host).map({ !$0.isUnspecified }) ?? true,
              let packet = try? BeaconPacket(decoding: bytes) else {
            lock.withLock { ignored += 1 }
            return
        }
        switch packet.kind {
        case .announce:
            onEvent(.heard(DiscoveryFinding(mechanism: .beacon, announcement: packet.announcement,
                                            host: host, seen: .now)))
        case .goodbye:
            onEvent(.goodbye(sessionID: packet.announcement.sessionID, host: host))
        }
    }
}

private final class BeaconInboundHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    // Unowned would dangle if the channel outlived the listener; the
    // listener holds the channel, the channel holds this: no cycle survives
    // `stop()`, which closes the channel.
    let listener: BeaconListener

    init(listener: BeaconListener) {
        self.listener = listener
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = Self.unwrapInboundIn(data)
        var buffer = envelope.data
        guard buffer.readableBytes <= BeaconPacket.maxSize,
              let bytes = buffer.readBytes(length: buffer.readableBytes) else {
            listener.received([], from: envelope.remoteAddress)
            return
        }
        listener.received(bytes, from: envelope.remoteAddress)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A datagram socket's read errors (e.g. ICMP-reported ones) are not
        // fatal; keep listening rather than close.
    }
}
