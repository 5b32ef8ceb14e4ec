import NIOCore
import NIOPosix
import LearnModel

/// Sends a hosting app's beacons: a burst right after `announce` (and after
/// every change, so "lobby closed" travels fast), then one every interval,
/// to the multicast group and to broadcast addresses.
///
/// Each destination has its own socket: NIO closes a datagram channel on a
/// send error such as ENETUNREACH, and one unroutable destination must not
/// silence the others. A failed destination is retried on the next beacon,
/// so plugging in a network cable or rejoining Wi-Fi heals by itself.
///
/// All state lives on one event loop; the public methods hop onto it.
public final class BeaconAnnouncer: @unchecked Sendable {
    public let configuration: BeaconConfiguration
    private let loop: any EventLoop
    /// Touched only on `loop` (checked in debug builds); that is what makes
    /// the unchecked Sendable above true.
    private let confined = State()
    private var state: State {
        loop.assertInEventLoop()
        return confined
    }
    private let onStatus: @Sendable (MechanismStatus) -> Void

    public init(configuration: BeaconConfiguration = .standard,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                onStatus: @escaping @Sendable (MechanismStatus) -> Void = { _ in }) {
        self.configuration = configuration
        self.loop = group.next()
        self.onStatus = onStatus
    }

    /// Starts announcing, or updates what is announced (with a new burst).
    public func announce(_ announcement: SessionAnnouncement) {
        loop.execute {
            let s = self.state
            s.announcement = announcement
            s.burstLeft = self.configuration.burstCount
            s.generation += 1
            s.next?.cancel()
            self.tick(generation: s.generation)
        }
    }

    /// Says goodbye (so listeners drop the session at once) and stops.
    public func withdraw() {
        loop.execute {
            let s = self.state
            guard let a = s.announcement else { return }
            self.halt()
            self.send(BeaconPacket(kind: .goodbye, announcement: a))
        }
    }

    /// Stops without a goodbye; listeners expire the session after the
    /// missed beacons (what a crashed host looks like).
    public func stop() {
        loop.execute { self.halt() }
    }

    /// Stops and closes the sockets.
    public func shutdown() async {
        let channels: [any Channel] = (try? await loop.submit {
            self.halt()
            let s = self.state
            defer { s.channels = [:] }
            return Array(s.channels.values)
        }.get()) ?? []
        for ch in channels { try? await ch.close() }
    }

    // MARK: - on the event loop

    private final class State {
        var announcement: SessionAnnouncement?
        var burstLeft = 0
        /// Bumped on every (re)start so a stale scheduled tick does nothing.
        var generation = 0
        var next: Scheduled<Void>?
        var channels: [Target: any Channel] = [:]
        var results: [Target: MechanismProblem?] = [:]
        var reported: MechanismStatus = .off
    }

    private struct Target: Hashable {
        var destination: IPv4Address
        /// Multicast out of this interface address; nil: by the routing table.
        var multicastInterface: IPv4Address?
        var isMulticast: Bool
    }

    private func halt() {
        let s = state
        s.generation += 1
        s.next?.cancel()
        s.next = nil
        s.announcement = nil
        s.results = [:]
        report(.off)
    }

    private func tick(generation: Int) {
        let s = state
        guard s.generation == generation, let a = s.announcement else { return }
        send(BeaconPacket(announcement: a))
        let delay: Duration
        if s.burstLeft > 1 {
            s.burstLeft -= 1
            delay = configuration.burstInterval
        } else {
            s.burstLeft = 0
            delay = configuration.interval
        }
        s.next = loop.scheduleTask(in: .nanoseconds(Int64(delay.nanoseconds))) { self.tick(generation: generation) }
    }

    private func targets() -> [Target] {
        var result: [Target] = []
        if let g = configuration.multicastGroup.flatMap(IPv4Address.init) {
            if let interfaces = configuration.multicastInterfaces {
                result += interfaces.compactMap(IPv4Address.init).map {
                    Target(destination: g, multicastInterface: $0, isMulticast: true)
                }
            } else {
                result.append(Target(destination: g, multicastInterface: nil, isMulticast: true))
            }
        }
        let broadcasts = configuration.broadcastAddresses.map { $0.compactMap(IPv4Address.init) }
            ?? (LocalInterfaces.current().interfaces.compactMap(\.broadcast)
                + [IPv4Address(BeaconConfiguration.loopbackBroadcast)!])
        for b in broadcasts where !result.contains(where: { $0.destination == b }) {
            result.append(Target(destination: b, multicastInterface: nil, isMulticast: false))
        }
        return result
    }

    private func send(_ packet: BeaconPacket) {
        let bytes = packet.encoded()
        let current = targets()
        let port = configuration.port
        // Forget destinations that vanished (an interface went away).
        state.results = state.results.filter { current.contains($0.key) }
        for target in current {
            channel(for: target).flatMap { ch -> EventLoopFuture<Void> in
                // A destination that is no address is a failed send, reported as such.
                do {
                    let address = try SocketAddress(ipAddress: target.destination.description, port: port)
                    return ch.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: ch.allocator.buffer(bytes: bytes)))
                } catch {
                    return ch.eventLoop.makeFailedFuture(error)
                }
            }.whenComplete { result in
                let problem: MechanismProblem?
                switch result {
                case .success: problem = nil
                case .failure(let error):
                    problem = target.isMulticast ? Self.multicastProblem(error, port: port) : .socket(error, port: port)
                }
                self.state.results[target] = .some(problem)
                self.updateStatus()
            }
        }
    }

    private static func multicastProblem(_ error: any Error, port: Int) -> MechanismProblem {
        let p = MechanismProblem.socket(error, port: port)
        return p == .permissionDenied ? p : .noMulticastRoute
    }

    private func channel(for target: Target) -> EventLoopFuture<any Channel> {
        if let ch = state.channels[target], ch.isActive { return loop.makeSucceededFuture(ch) }
        state.channels[target] = nil
        return DatagramBootstrap(group: loop)
            .channelOption(.socketOption(.so_broadcast), value: 1)
            .bind(host: "0.0.0.0", port: 0)
            .flatMap { ch -> EventLoopFuture<any Channel> in
                guard let interface = target.multicastInterface, let provider = ch as? any SocketOptionProvider else {
                    return self.loop.makeSucceededFuture(ch)
                }
                return provider.setIPMulticastIF(interface.inAddr).map { ch }
            }
            .map { ch in
                self.state.channels[target] = ch
                return ch
            }
    }

    private func updateStatus() {
        let s = state
        guard s.announcement != nil else { return }
        let outcomes = Array(s.results.values)
        let problems = outcomes.compactMap { $0 }
        let status: MechanismStatus
        if outcomes.isEmpty {
            status = .starting
        } else if problems.isEmpty {
            status = .running
        } else if problems.count == outcomes.count {
            status = .unavailable(problems.contains(.permissionDenied) ? .permissionDenied : problems[0])
        } else {
            status = .limited(problems.contains(.noMulticastRoute) ? .noMulticastRoute : problems[0])
        }
        report(status)
    }

    private func report(_ status: MechanismStatus) {
        let s = state
        guard s.reported != status else { return }
        s.reported = status
        onStatus(status)
    }
}

private extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
