import Foundation
import LearnModel
import NIOCore
import NIOPosix

public enum SessionClientError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreachable(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let host, let port, let reason): "cannot reach \(host):\(port): \(reason)"
        }
    }
}

/// Joins a session as a drawer or an observer: connects, says hello, feeds
/// the host's messages into a `PeerSession` and rejoins by itself (with the
/// member's token) when the connection breaks. Everything runs on one event
/// loop; the public methods hop onto it and return at once. Events reach
/// `onEvent` in order, on that loop.
public final class SessionClient: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var name: String
        public var peerID = UUID()
        public var role: PeerRole = .drawer
        /// The school account signed in on this laptop, told to the host.
        public var accountID: UUID?
        public var avatarPNG: [UInt8]?
        /// A token from an earlier connection to the same session (rejoin).
        public var resumeToken: ResumeToken?
        /// How long to keep trying to rejoin after the connection breaks
        /// before deciding the host is gone (`ended(.hostLeft)`).
        public var rejoinWindow: Duration = .seconds(15)
        public var connectTimeout: Duration = .seconds(5)
        public var options = TransportOptions()
        public var log = SessionLog.stderr
        /// Set: the session is reached through the school server's relay
        /// (`host` and `port` are then only for messages).
        public var relay: RelayRoute?
        /// A watcher of a group of its class: `WatchProof.make` with the
        /// class's key, this session's id, `peerID` and the host's address
        /// as dialled here.
        public var watchProof: [UInt8]?

        public init(host: String, port: Int, name: String, role: PeerRole = .drawer) {
            self.host = host
            self.port = port
            self.name = name
            self.role = role
        }
    }

    private let core: ClientCore

    private init(core: ClientCore) { self.core = core }

    /// Connects and says hello. Throws only if the first connection fails;
    /// whether the host accepts arrives as an event (`accepted`, `declined`).
    ///
    /// `onActivityMessage` gets the frames of the session's activity (none
    /// for a sketch), in order with the events and on the same loop. If it
    /// throws, the frame was malformed: the connection is closed and the
    /// client rejoins, as for a malformed frame of the session's own.
    public static func connect(_ config: Configuration,
                               group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                               onActivityMessage: (@Sendable (ActivityMessage) throws(ActivityPayloadError) -> Void)? = nil,
                               onEvent: @escaping @Sendable (SessionEvent) -> Void = { _ in }) async throws(SessionClientError) -> SessionClient {
        var session = PeerSession(peerID: config.peerID, name: config.name, role: config.role,
                                  avatarPNG: config.avatarPNG, resumeToken: config.resumeToken,
                                  accountID: config.accountID)
        session.watchProof = config.watchProof
        let core = ClientCore(loop: group.next(), session: session, config: config, onEvent: onEvent)
        core.onActivityMessage = onActivityMessage
        do {
            // Attached on the loop the moment it connects, not after a hop
            // back to this task: a busy machine may not run the task for
            // longer than the host waits for a hello.
            try await core.dial { channel in try core.attach(channel) }.get()
        } catch let error as RelayError {
            throw .unreachable(host: config.host, port: config.port, reason: error.description)
        } catch let error as NIOConnectionError {
            let first = error.connectionErrors.first.map { "\($0.error)" } ?? error.dnsAError.map { "\($0)" } ?? "\(error)"
            throw .unreachable(host: config.host, port: config.port, reason: first)
        } catch {
            throw .unreachable(host: config.host, port: config.port, reason: "\(error)")
        }
        return SessionClient(core: core)
    }

    // MARK: - Drawing

    public func beginStroke(id: UUID, color: RGBA, width: Double, start: Point) {
        core.loop.execute { self.core.perform(self.core.session.beginStroke(id: id, color: color, width: width, start: start)) }
    }

    /// Hand over what the stroke builder emitted; sent at most once a frame.
    public func addSegments(_ segments: [CubicSegment], to id: UUID) {
        core.loop.execute { self.core.addSegments(segments, to: id) }
    }

    public func endStroke(_ id: UUID) {
        core.loop.execute { self.core.endStroke(id) }
    }

    public func erase(_ id: UUID) {
        core.loop.execute { self.core.perform(self.core.session.erase(id)) }
    }

    /// Sends a frame of the session's activity to the host (dropped while
    /// disconnected).
    public func sendActivity(_ message: ActivityMessage) {
        core.loop.execute { self.core.perform([.send(.activity(message))]) }
    }

    // MARK: - State

    public func document() async -> SketchDocument { await core.read { $0.session.document } }
    public func state() async -> PeerSession { await core.read { $0.session } }
    public func statistics(resetPeak: Bool = false) async -> TransportStatistics {
        await core.read { $0.statistics(resetPeak: resetPeak) }
    }

    /// Leaves on purpose: says bye, closes, and does not rejoin. The document
    /// stays readable.
    public func leave() async {
        let f = await core.read { $0.leave() }
        _ = try? await f?.get()
    }

    /// Cuts the connection without a word and never comes back (a tablet
    /// switched off). For fault tests.
    func vanishForTesting() async {
        let f = await core.read { core -> EventLoopFuture<Void>? in core.vanish() }
        _ = try? await f?.get()
    }

    /// Cuts the connection without a word, as a crash or a pulled cable
    /// would; the client then rejoins by itself. For fault tests.
    func dropConnectionForTesting() async {
        let f = await core.read { core -> EventLoopFuture<Void>? in
            guard let ch = core.channel else { return nil }
            ch.close(promise: nil)
            return ch.closeFuture
        }
        _ = try? await f?.get()
    }
}

/// The member's state, confined to one event loop.
final class ClientCore: @unchecked Sendable {
    let loop: any EventLoop
    var session: PeerSession
    /// The activity's frames go here instead of to the session.
    var onActivityMessage: (@Sendable (ActivityMessage) throws(ActivityPayloadError) -> Void)?
    private let config: ClientConfig
    private let onEvent: @Sendable (SessionEvent) -> Void
    typealias ClientConfig = SessionClient.Configuration

    private(set) var channel: Channel?
    private var writer: ConnectionWriter?
    private var lastHeard = NIODeadline.now()
    private var stopped = false
    private var lostAt: NIODeadline?
    private let batcher: LoopSegmentBatcher
    private var tick: RepeatedTask?
    private var stats = TransportStatistics()
    private var closedSent = 0

    init(loop: any EventLoop, session: PeerSession, config: ClientConfig, onEvent: @escaping @Sendable (SessionEvent) -> Void) {
        self.loop = loop
        self.session = session
        self.config = config
        self.onEvent = onEvent
        batcher = LoopSegmentBatcher(loop: loop, interval: config.options.batchInterval)
        batcher.deliver = { [weak self] id, segments in
            guard let self else { return }
            self.perform(self.session.addSegments(segments, to: id))
        }
    }

    /// Runs `body` on the loop and hands back its result. `execute` rather
    /// than `submit`: nothing can fail, so there is no error to unwrap.
    func read<T: Sendable>(_ body: @escaping @Sendable (ClientCore) -> T) async -> T {
        await withCheckedContinuation { c in loop.execute { c.resume(returning: body(self)) } }
    }

    func bootstrap() -> ClientBootstrap {
        var b = ClientBootstrap(group: loop)
            .connectTimeout(config.connectTimeout.timeAmount)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        if let n = config.options.socketSendBuffer {
            b = b.channelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(n))
        }
        if let n = config.options.socketReceiveBuffer {
            b = b.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(n))
        }
        return b
    }

    /// Connects the way the session is reached (TCP, or a WebSocket
    /// through the relay) and hands the connection to `onConnected` on the
    /// loop the moment it is made; a connection it refuses is closed.
    func dial(_ onConnected: @escaping @Sendable (Channel) throws -> Void) -> EventLoopFuture<Void> {
        if let relay = config.relay {
            let path = "/relay/v1/join/\(relay.sessionID.lowercasedText)"
            return RelayDialer.dial(relay.endpoint, path: path, timeout: config.connectTimeout.timeAmount, loop: loop,
                                    ready: onConnected).map { _ in }
        }
        return bootstrap().connect(host: config.host, port: config.port).hop(to: loop).flatMapThrowing { channel in
            do { try onConnected(channel) } catch { channel.close(promise: nil); throw error }
        }
    }

    func attach(_ channel: Channel) throws {
        loop.preconditionInEventLoop()
        let writer = ConnectionWriter(channel: channel, options: config.options)
        try channel.pipeline.syncOperations.addHandler(FrameHandler(
            onMessage: { [weak self] m in self?.received(m, on: channel) },
            onFrameError: { [weak self] e in
                self?.config.log.write("closing the connection to the host: \(e)")
                channel.close(promise: nil)
            },
            onBytes: { [weak self] n in self?.stats.bytesReceived += n },
            onInactive: { [weak self] in self?.closed(channel) }))
        self.channel = channel
        self.writer = writer
        lastHeard = .now()
        if lostAt != nil { config.log.write("reconnected to \(config.host):\(config.port)") }
        lostAt = nil
        if tick == nil {
            tick = loop.scheduleRepeatedTask(initialDelay: config.options.pingInterval.timeAmount,
                                             delay: config.options.pingInterval.timeAmount) { _ in self.onTick() }
        }
        perform(session.connected())
    }

    private func received(_ message: SessionMessage, on channel: Channel) {
        loop.preconditionInEventLoop()
        guard channel === self.channel else { return }
        lastHeard = .now()
        switch message {
        case .activity(let m):
            do {
                try onActivityMessage?(m)
            } catch {
                config.log.write("closing the connection to the host: malformed payload of type \(m.type): \(error)")
                if error.stopsRejoining {
                    stopped = true
                    finishTimers()
                }
                channel.close(promise: nil)
            }
        default:
            perform(session.receive(message))
        }
    }

    private func closed(_ channel: Channel) {
        guard channel === self.channel else { return }
        closedSent += writer?.bytesSent ?? 0
        self.channel = nil
        writer = nil
        perform(session.connectionLost(reason: "connection closed"))
        guard !stopped, !session.phase.isFinal else { return finishTimers() }
        config.log.write("lost the connection to \(config.host):\(config.port), rejoining")
        lostAt = .now()
        scheduleReconnect(after: .milliseconds(50))
    }

    private func scheduleReconnect(after delay: TimeAmount) {
        loop.scheduleTask(in: delay) { self.reconnect(delay: delay) }
    }

    private func reconnect(delay: TimeAmount) {
        guard !stopped, channel == nil, let lostAt else { return }
        dial { channel in
            guard !self.stopped, self.channel == nil else { throw ChannelError.alreadyClosed }
            try self.attach(channel)
        }.whenComplete { result in
            switch result {
            case .success:
                break
            case .failure:
                guard self.channel == nil else { return }
                if NIODeadline.now() - lostAt > self.config.rejoinWindow.timeAmount {
                    self.config.log.write("the host is gone")
                    self.stopped = true
                    self.finishTimers()
                    self.perform(self.session.hostUnreachable())
                } else {
                    self.scheduleReconnect(after: min(delay * 2, .seconds(1)))
                }
            }
        }
    }

    func perform(_ effects: [PeerSession.Effect]) {
        loop.preconditionInEventLoop()
        for effect in effects {
            switch effect {
            case .send(let message):
                guard let writer else { continue }
                if !writer.send(message, frame: message.frame()) {
                    // The host stopped reading: start over with a rejoin.
                    config.log.write("the host is not reading; reconnecting")
                    writer.channel.close(promise: nil)
                }
            case .resync(let reason):
                // Not stopped: `closed` rejoins with the token, and the
                // rejoin's snapshot brings the host's copy.
                config.log.write("\(reason); rejoining for the host's copy")
                writer?.channel.close(promise: nil)
            case .close(let reason):
                stopped = true
                finishTimers()
                if let writer {
                    config.log.write("closing: \(reason)")
                    writer.closeAfterFlush()
                }
            case .event(let e):
                onEvent(e)
            }
        }
    }

    func addSegments(_ segments: [CubicSegment], to id: UUID) {
        batcher.add(segments, to: id)
    }

    func endStroke(_ id: UUID) {
        let last = batcher.takeForEnd(of: id)
        if !last.isEmpty { perform(session.addSegments(last, to: id)) }
        perform(session.endStroke(id))
    }

    private func onTick() {
        guard let writer, let channel else { return }
        let now = NIODeadline.now()
        if now - lastHeard > config.options.idleTimeout.timeAmount {
            config.log.write("the host has been silent for \(config.options.idleTimeout)")
            channel.close(promise: nil)
        } else if !writer.send(.ping(0), frame: SessionMessage.ping(0).frame()) {
            channel.close(promise: nil)
        }
    }

    private func finishTimers() {
        tick?.cancel()
        tick = nil
    }

    func vanish() -> EventLoopFuture<Void>? {
        stopped = true
        finishTimers()
        guard let channel else { return nil }
        channel.close(promise: nil)
        return channel.closeFuture
    }

    func leave() -> EventLoopFuture<Void>? {
        stopped = true
        finishTimers()
        guard let writer, let channel else { return nil }
        _ = writer.send(.bye, frame: SessionMessage.bye.frame())
        writer.closeAfterFlush()
        return channel.closeFuture
    }

    func statistics(resetPeak: Bool) -> TransportStatistics {
        var s = stats
        s.connections = channel == nil ? 0 : 1
        s.bytesSent = closedSent + (writer?.bytesSent ?? 0)
        s.mergedBatches = writer?.mergedBatches ?? 0
        s.queuedBytes = writer?.pendingBytes ?? 0
        s.peakQueuedBytes = (resetPeak ? writer?.takePeak() : writer?.peak) ?? 0
        return s
    }
}
