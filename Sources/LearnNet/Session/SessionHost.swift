import Foundation
import LearnModel
import NIOCore
import NIOPosix

/// Hosts a session over TCP: listens, feeds every connection's messages into
/// a `HostSession` and carries out its effects. Everything runs on one event
/// loop, so the session needs no lock; the public methods hop onto it and
/// return at once. Events reach `onEvent` in order, on that loop: hop to the
/// main actor from there (`Task { @MainActor in … }`).
public final class SessionHost: Sendable {
    public struct Configuration: Sendable {
        public var name: String
        public var peerID = UUID()
        public var avatarPNG: [UInt8]?
        public var params: SessionParams
        public var settings = SessionSettings()
        public var acceptAll = false
        public var sessionID = UUID()
        /// The sketch drawn (told only to those let in) and the school
        /// account of the host's pupil or teacher, if the laptop has one.
        public var sketch = SessionSketch()
        /// Address to listen on; the default takes every interface.
        public var bindHost = "0.0.0.0"
        /// 0 = any free port (see `port` once started).
        public var port = 0
        public var options = TransportOptions()
        public var log = SessionLog.stderr
        /// Joiners waiting for the host at once, and from one address (this
        /// machine's own addresses are not capped per address).
        public var maxWaiting = HostSession.defaultMaxWaiting
        public var maxWaitingPerAddress = HostSession.defaultMaxWaitingPerAddress
        /// How much the sketch may hold (the file limits; tests shrink it).
        public var capacity = SketchCapacity.sketchFile
        /// The key of the class of the pupil signed in here: its teacher's
        /// wall watches without asking (`WatchProof`).
        public var classWatchKey: [UInt8]?

        public init(name: String, params: SessionParams) {
            self.name = name
            self.params = params
        }
    }

    let core: HostCore
    /// The port the host listens on.
    public let port: Int
    public let sessionID: UUID
    public let sketch: SessionSketch
    public let peerID: UUID

    private init(core: HostCore, port: Int, sessionID: UUID, sketch: SessionSketch, peerID: UUID) {
        self.core = core
        self.port = port
        self.sessionID = sessionID
        self.sketch = sketch
        self.peerID = peerID
    }

    /// Starts listening. Throws if the port cannot be bound.
    ///
    /// `activity` rides on the session (nil: Team Sketch, whose strokes are
    /// the session's own frames): it declares its kind, lobby block and
    /// start rule, gets its own frames and sees every batch of session
    /// effects after they were carried out.
    public static func start(_ config: Configuration,
                             group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             activity: (any HostActivity)? = nil,
                             onEvent: @escaping @Sendable (SessionEvent) -> Void = { _ in }) async throws -> SessionHost {
        let loop = group.next()
        var session = HostSession(sessionID: config.sessionID, sketch: config.sketch, hostPeerID: config.peerID, hostName: config.name,
                                  hostAvatar: config.avatarPNG, params: config.params, settings: config.settings,
                                  acceptAll: config.acceptAll,
                                  activity: activity?.declaration ?? SketchActivity.declaration)
        session.maxWaiting = config.maxWaiting
        session.maxWaitingPerAddress = config.maxWaitingPerAddress
        session.capacity = config.capacity
        session.classWatchKey = config.classWatchKey
        let core = HostCore(loop: loop, session: session, options: config.options, log: config.log, onEvent: onEvent)
        core.activity = activity
        var bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        if let n = config.options.socketSendBuffer {
            bootstrap = bootstrap.childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(n))
        }
        if let n = config.options.socketReceiveBuffer {
            bootstrap = bootstrap.childChannelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(n))
        }
        bootstrap = bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try core.attach(channel) }
        }
        let server = try await bootstrap.bind(host: config.bindHost, port: config.port).get()
        let port = server.localAddress?.port ?? config.port
        try await loop.submit { core.started(server: server) }.get()
        config.log.write("hosting '\(config.params.name)' on port \(port)")
        return SessionHost(core: core, port: port, sessionID: config.sessionID, sketch: config.sketch,
                           peerID: config.peerID)
    }

    // MARK: - Through the school server

    /// Offers the session through the school server's relay as well, for
    /// the class's devices that cannot reach this one (another room's
    /// network, Wi-Fi that keeps its clients apart). Members who come that
    /// way are members like any other; the server only carries bytes.
    /// `classID`: the class the session is for (a teacher names one of
    /// theirs; a pupil's own class is known to the server). Throws when
    /// the server refuses or cannot be reached; ends with the session.
    public func relay(through endpoint: RelayEndpoint, sessionName: String, classID: UUID? = nil,
                      timeout: Duration = .seconds(10)) async throws {
        // An id another host holds (a stranger who got there first cannot
        // know a random one, but ids can meet) is given up for a new one.
        for attempt in 1... {
            do {
                return try await relayOnce(through: endpoint, sessionName: sessionName, classID: classID, timeout: timeout)
            } catch RelayError.refused(status: 409) where attempt < Self.relayIDAttempts {
                await core.read { $0.relayID = UUID() }
            }
        }
    }

    /// Fresh relay ids tried before a 409 is taken as the server's answer.
    static let relayIDAttempts = 3

    /// The id the school server relays this session under: random, made
    /// here and kept for the session's offers, unrelated to the LAN's
    /// session id. The LAN id is in every beacon, so a relay listing keyed
    /// by it could be taken by anyone who heard one before the host
    /// registered; this one is only known once the server lists it.
    public var relayID: UUID {
        get async { await core.read { $0.relayID } }
    }

    private func relayOnce(through endpoint: RelayEndpoint, sessionName: String, classID: UUID?,
                           timeout: Duration) async throws {
        // The server lists the activity, so a join screen shows only what
        // the device can play; and the LAN id, so a card for the session
        // seen nearby and through the server is one.
        let (activity, relayID) = await core.read { ($0.session.activity.kind.rawValue, $0.relayID) }
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "name", value: String(sessionName.prefix(200))),
                            URLQueryItem(name: "activity", value: activity),
                            URLQueryItem(name: "session", value: sessionID.lowercasedText)]
            + (classID.map { [URLQueryItem(name: "class", value: $0.lowercasedText)] } ?? [])
        let path = "/relay/v1/host/\(relayID.lowercasedText)?\(query.percentEncodedQuery ?? "")"
        let core = self.core
        let listed = core.loop.makePromise(of: Void.self)
        let dialed = RelayDialer.dial(endpoint, path: path, timeout: timeout.timeAmount, loop: core.loop,
                                      bytes: false) { [weak core] channel in
            // Taken by the core at once, on its loop: a session that ends
            // from now on closes it (`closeAll`).
            guard let core, core.session.ended == nil, core.relayControl == nil else {
                throw RelayError.unreachable("the session has ended or is relayed already")
            }
            try channel.pipeline.syncOperations.addHandler(RelayControlHandler(
                onReady: { listed.succeed(()) },
                onOpen: { [weak core] connection, account in
                    core?.relayedMemberArrives(connection, account: account, endpoint: endpoint, relayID: relayID,
                                               timeout: timeout)
                },
                onClosed: { [weak core, weak channel] reason in
                    listed.fail(RelayError.unreachable("the relay closed"))
                    core?.log.write("the school server's relay closed" + (reason.map { ": " + $0 } ?? ""))
                    // Gone for good: a later offer (the server back) opens a new one.
                    if let core, core.relayControl === channel { core.relayControl = nil }
                }))
            core.relayControl = channel
        }
        dialed.whenFailure { listed.fail($0) }
        let control = try await dialed.get()
        // Upgraded is not yet listed: members may look for it once it is.
        let timer = core.loop.scheduleTask(in: timeout.timeAmount) { listed.fail(RelayError.unreachable("not listed")) }
        defer { timer.cancel() }
        do {
            try await listed.futureResult.get()
        } catch {
            await core.read { core in
                if core.relayControl === control { core.relayControl = nil }
                control.close(promise: nil)
            }
            throw error
        }
        core.log.write("relaying '\(sessionName)' through \(endpoint.host):\(endpoint.port)")
    }

    // MARK: - Lobby

    public func accept(_ member: MemberIndex) { core.submit(.accept(member)) }
    public func decline(_ member: MemberIndex) { core.submit(.decline(member)) }
    /// Sends away everyone still waiting (a flood of strangers) in one go.
    public func declineAllWaiting() { core.submit(.declineAllWaiting) }
    /// Starts the activity; refused (a `.refused` event) when its start rule
    /// says not yet.
    public func start() { core.submit(.start) }
    /// Accept drawers without asking from now on (`host --accept-all`).
    public func setAcceptAll(_ on: Bool) { core.loop.execute { self.core.session.acceptAll = on } }
    /// Clears the sheet for everyone, if the settings allow it.
    public func clear() { core.submit(.clear) }

    // MARK: - Drawing (the host's own pen)

    public func beginStroke(id: UUID, color: RGBA, width: Double, start: Point) {
        core.submit(.beginStroke(id: id, color: color, width: width, start: start))
    }

    /// Hand over what the stroke builder emitted; sent at most once a frame.
    public func addSegments(_ segments: [CubicSegment], to id: UUID) {
        core.loop.execute { self.core.addSegments(segments, to: id) }
    }

    public func endStroke(_ id: UUID) {
        core.loop.execute { self.core.endStroke(id) }
    }

    public func erase(_ id: UUID) { core.submit(.erase(id: id)) }

    /// Runs `body` on the session's loop (for an activity riding on it).
    func onLoop(_ body: @escaping @Sendable (HostCore) -> Void) {
        let core = core
        core.loop.execute { body(core) }
    }

    /// Runs `body` on the session's loop with what an activity may do there
    /// (its own moves, timers).
    public func withActivityContext(_ body: @escaping @Sendable (HostActivityContext) -> Void) {
        onLoop { core in body(HostActivityContext(core: core)) }
    }

    /// Reads something on the session's loop.
    func read<T: Sendable>(_ body: @escaping @Sendable (HostCore) -> T) async -> T {
        await core.read(body)
    }

    // MARK: - State

    public func document() async -> SketchDocument { await core.read { $0.session.document } }
    public func lobby() async -> Lobby { await core.read { $0.session.lobby } }
    /// The school accounts of the drawers let in (`HostSession.memberAccounts`).
    public func memberAccounts() async -> [UUID] { await core.read { $0.session.memberAccounts } }
    public func state() async -> HostSession { await core.read { $0.session } }
    public func statistics(resetPeak: Bool = false) async -> TransportStatistics {
        await core.read { $0.statistics(resetPeak: resetPeak) }
    }

    // MARK: - Ending

    /// Ends the session for everyone (strokes in progress are committed), waits
    /// briefly for the last frames to go out, and stops listening.
    public func end(_ reason: EndReason = .hostEnded) async {
        await core.read { $0.handle(.end(reason)) }
        await shutdown()
    }

    /// Stops listening and closes every connection. A session not ended yet
    /// ends with `hostLeft`: members keep their copies and are told.
    public func shutdown() async {
        let futures = await core.read { core in
            if core.session.ended == nil { core.handle(.end(.hostLeft)) }
            return core.closeAll()
        }
        for f in futures { _ = try? await f.get() }
    }

    /// The host vanishing without a word (a crash, a pulled cable): sockets
    /// close at once and nothing is sent. For fault tests.
    func crashForTesting() async {
        let futures = await core.read { core in
            core.closeAll(abruptly: true)
        }
        for f in futures { _ = try? await f.get() }
    }
}

/// The host's state, confined to one event loop (its entry points check).
final class HostCore: @unchecked Sendable {
    let loop: any EventLoop
    var session: HostSession
    var activity: (any HostActivity)?
    private let options: TransportOptions
    let log: SessionLog
    private let onEvent: @Sendable (SessionEvent) -> Void

    private struct Connection {
        var writer: ConnectionWriter
        /// The peer's address, as counted by `admission`.
        var source: String
        var opened: NIODeadline
        var lastHeard: NIODeadline
    }

    private var server: Channel?
    /// The control socket at the school server's relay, when relayed.
    var relayControl: Channel?
    /// `SessionHost.relayID`.
    var relayID = UUID()
    private var connections: [ConnectionID: Connection] = [:]
    private var nextID: ConnectionID = 1
    private var admission: ConnectionAdmission
    private let batcher: LoopSegmentBatcher
    private var deadlineTask: Scheduled<Void>?
    private var tick: RepeatedTask?
    private var stats = TransportStatistics()
    private var closedSent = 0
    private var closedMerged = 0
    /// This machine's own addresses: other apps on it are not strangers
    /// flooding the lobby, so they are not capped per address.
    private let ownAddresses: Set<String> = {
        var own: Set<String> = ["127.0.0.1", "::1"]
        for d in (try? System.enumerateDevices()) ?? [] { if let ip = d.address?.ipAddress { own.insert(ip) } }
        return own
    }()

    init(loop: any EventLoop, session: HostSession, options: TransportOptions, log: SessionLog,
         onEvent: @escaping @Sendable (SessionEvent) -> Void) {
        self.loop = loop
        self.session = session
        self.options = options
        self.log = log
        self.onEvent = onEvent
        admission = ConnectionAdmission(maxPerSource: options.maxConnectionsPerAddress, maxTotal: options.maxConnections)
        batcher = LoopSegmentBatcher(loop: loop, interval: options.batchInterval)
        batcher.deliver = { [weak self] id, segments in self?.handle(.addSegments(id: id, segments: segments)) }
    }

    func submit(_ event: HostSession.Event) {
        loop.execute { self.handle(event) }
    }

    /// Runs `body` on the loop and hands back its result. `execute` rather
    /// than `submit`: nothing can fail, so there is no error to unwrap.
    func read<T: Sendable>(_ body: @escaping @Sendable (HostCore) -> T) async -> T {
        await withCheckedContinuation { c in loop.execute { c.resume(returning: body(self)) } }
    }

    func started(server: Channel) {
        loop.preconditionInEventLoop()
        self.server = server
        tick = loop.scheduleRepeatedTask(initialDelay: options.pingInterval.timeAmount,
                                         delay: options.pingInterval.timeAmount) { _ in self.onTick() }
    }

    /// A member coming through the relay: the host opens that member's
    /// socket at the server, which then is a connection like any other.
    /// Every relayed member arrives from the server's address, so the
    /// source the per-address caps count is the member's account (which
    /// the server vouches for): one pupil's many sockets are one machine's.
    func relayedMemberArrives(_ connection: UUID, account: UUID?, endpoint: RelayEndpoint, relayID: UUID,
                              timeout: Duration) {
        loop.preconditionInEventLoop()
        guard session.ended == nil else { return }
        let path = "/relay/v1/answer/\(relayID.lowercasedText)/\(connection.lowercasedText)"
        RelayDialer.dial(endpoint, path: path, timeout: timeout.timeAmount, loop: loop) { [weak self] channel in
            guard let self else { throw ChannelError.ioOnClosedChannel }
            try self.attach(channel, source: "relay \((account ?? connection).lowercasedText)")
        }.whenFailure { [weak self] error in
            self?.log.write("could not answer a member at the relay: \(error)")
        }
    }

    /// A new connection (called on the loop by the server's child
    /// initializer, or for the relay with a source of its own).
    func attach(_ channel: Channel, source relaySource: String? = nil) throws {
        loop.preconditionInEventLoop()
        let source = relaySource ?? channel.remoteAddress?.ipAddress ?? "?"
        var closedForRoom: Set<ConnectionID> = []
        admitting: while true {
            // One already closed for room cannot be offered twice.
            let silent = session.connectionsWithoutHello.filter { !closedForRoom.contains($0) }
            switch admission.admit(source: source, silent: silent) {
            case .admitted:
                break admitting
            case .makeRoom(let id):
                closedForRoom.insert(id)
                drop(id, reason: "made room for a new connection (no hello yet)")
            case .refused(let refusal):
                // Closed before a byte is read: no handler, no session state.
                stats.refusedConnections += 1
                log.write("refusing a connection from \(source): \(refusal)")
                channel.close(promise: nil)
                return
            }
        }
        let id = nextID
        nextID += 1
        let now = NIODeadline.now()
        connections[id] = Connection(writer: ConnectionWriter(channel: channel, options: options), source: source,
                                     opened: now, lastHeard: now)
        try channel.pipeline.syncOperations.addHandler(FrameHandler(
            onMessage: { [weak self] m in self?.received(m, on: id) },
            onFrameError: { [weak self] e in self?.drop(id, reason: e.description) },
            onBytes: { [weak self] n in self?.stats.bytesReceived += n },
            onInactive: { [weak self] in self?.closed(id) },
            admits: { [weak self] type in self?.session.admitsFrame(type: type, on: id) ?? false },
            onRefusedType: { [weak self] type in self?.drop(id, reason: "a frame of type \(type) before hello") }))
        // The address the peer dialled, which a class's watcher proves it
        // came to (none through the relay: the host dialled out there).
        let reached = relaySource == nil
            ? channel.localAddress.flatMap { a in a.ipAddress.flatMap { ip in a.port.map { WatchProof.addressText(host: ip, port: $0) } } }
            : nil
        handle(.connectionOpened(id, from: ownAddresses.contains(source) ? nil : source, reachedAt: reached))
    }

    func handle(_ event: HostSession.Event) {
        loop.preconditionInEventLoop()
        let effects = session.handle(event, now: Date())
        perform(effects)
        streamSnapshots()
        armDeadline()
        activity?.performed(effects, host: HostActivityContext(core: self))
    }

    private func received(_ message: SessionMessage, on id: ConnectionID) {
        loop.preconditionInEventLoop()
        guard connections[id] != nil else { return }
        connections[id]?.lastHeard = .now()
        if let activity {
            let member = session.connections[id] ?? nil
            switch message {
            case .activity(let m):
                guard let member else { return drop(id, reason: "an activity frame before hello") }
                do {
                    try activity.received(m, from: member, on: id, host: HostActivityContext(core: self))
                } catch {
                    drop(id, reason: "malformed payload of type \(m.type): \(error)")
                }
                return
            case .bye:
                if let member { activity.memberSaidBye(member, host: HostActivityContext(core: self)) }
            default:
                break
            }
        }
        // Without an activity, an activity frame is one the session does not
        // expect from a member: it closes that connection.
        handle(.received(id, message))
    }

    private func closed(_ id: ConnectionID) {
        guard let c = connections.removeValue(forKey: id) else { return }
        admission.release(source: c.source)
        account(c.writer)
        handle(.connectionClosed(id))
    }

    /// Closes a connection at once (bad frames, too slow, silent) and tells
    /// the session; the others carry on.
    func drop(_ id: ConnectionID, reason: String) {
        guard let c = connections.removeValue(forKey: id) else { return }
        let member = memberIndex(of: id)
        log.write("closing connection \(id)\(member.map { " (member \($0))" } ?? ""): \(reason)")
        admission.release(source: c.source)
        account(c.writer)
        c.writer.channel.close(promise: nil)
        onEvent(.connectionDropped(member: member, reason: reason))
        handle(.connectionClosed(id))
    }

    private func memberIndex(of id: ConnectionID) -> MemberIndex? {
        session.connections[id] ?? nil
    }

    private func account(_ w: ConnectionWriter) {
        closedSent += w.bytesSent
        closedMerged += w.mergedBatches
    }

    func perform(_ effects: [HostSession.Effect]) {
        loop.preconditionInEventLoop()
        var tooSlow: [ConnectionID] = []
        for effect in effects {
            switch effect {
            case .send(let message, let targets):
                guard !targets.isEmpty else { continue }
                let frame = message.frame()
                for id in targets {
                    guard let c = connections[id] else { continue }
                    if !c.writer.send(message, frame: frame) { tooSlow.append(id) }
                }
            case .close(let id, let reason):
                guard let c = connections[id] else { continue }
                // Neither the end nor an answered peek (a join screen asking
                // for the host's picture) is trouble worth reporting.
                if reason != "session ended" && reason != "peek answered" {
                    log.write("closing connection \(id): \(reason)")
                    onEvent(.connectionDropped(member: nil, reason: reason))
                }
                c.writer.closeAfterFlush()
            case .event(let e):
                onEvent(e)
            }
        }
        for id in Set(tooSlow) {
            stats.slowDrops += 1
            drop(id, reason: "too slow: more than \(options.maxQueuedBytes) bytes waiting")
        }
    }

    /// Each snapshot in progress gets its next piece once its connection has
    /// drained to the low-water mark.
    private func streamSnapshots() {
        for id in session.snapshotCursors.keys { whenDrained(id) }
    }

    private func whenDrained(_ id: ConnectionID) {
        let lowWater = options.snapshotLowWater
        connections[id]?.writer.notifyWhenDrained(below: lowWater) { [weak self] in
            guard let self, self.session.snapshotCursors[id] != nil, let writer = self.connections[id]?.writer else { return }
            // Several notices may have been on their way: only a drained
            // queue gets the next piece.
            if writer.pendingBytes <= lowWater { self.handle(.snapshotDrained(id)) } else { self.whenDrained(id) }
        }
    }

    // MARK: - Local drawing, batched per frame

    func addSegments(_ segments: [CubicSegment], to id: UUID) {
        batcher.add(segments, to: id)
    }

    func endStroke(_ id: UUID) {
        let last = batcher.takeForEnd(of: id)
        if !last.isEmpty { handle(.addSegments(id: id, segments: last)) }
        handle(.endStroke(id: id))
    }

    // MARK: - Timers

    private func armDeadline() {
        guard deadlineTask == nil, session.ended == nil, let deadline = session.deadline else { return }
        let delay = max(0, deadline.timeIntervalSinceNow)
        deadlineTask = loop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { self.handle(.end(.timeUp)) }
    }

    private func onTick() {
        let now = NIODeadline.now()
        for (id, c) in connections {
            let helloed = (session.connections[id] ?? nil) != nil
            if !helloed && now - c.opened > options.helloTimeout.timeAmount {
                drop(id, reason: "no hello within \(options.helloTimeout)")
            } else if now - c.lastHeard > options.idleTimeout.timeAmount {
                drop(id, reason: "silent for \(options.idleTimeout)")
            } else if helloed, !c.writer.send(.ping(UInt64(now.uptimeNanoseconds)), frame: SessionMessage.ping(UInt64(now.uptimeNanoseconds)).frame()) {
                stats.slowDrops += 1
                drop(id, reason: "too slow: more than \(options.maxQueuedBytes) bytes waiting")
            }
        }
    }

    func statistics(resetPeak: Bool) -> TransportStatistics {
        var s = stats
        s.connections = connections.count
        s.bytesSent = closedSent + connections.values.reduce(0) { $0 + $1.writer.bytesSent }
        s.mergedBatches = closedMerged + connections.values.reduce(0) { $0 + $1.writer.mergedBatches }
        s.queuedBytes = connections.values.map(\.writer.pendingBytes).max() ?? 0
        s.peakQueuedBytes = connections.values.map { resetPeak ? $0.writer.takePeak() : $0.writer.peak }.max() ?? 0
        return s
    }

    func closeAll(abruptly: Bool = false) -> [EventLoopFuture<Void>] {
        tick?.cancel()
        tick = nil
        deadlineTask?.cancel()
        var futures: [EventLoopFuture<Void>] = []
        if let server {
            futures.append(server.close())
            self.server = nil
        }
        if let relayControl {
            relayControl.close(promise: nil)
            futures.append(relayControl.closeFuture)
            self.relayControl = nil
        }
        for (_, c) in connections {
            // What was queued (an `end`) still goes out; a member that does not
            // read gets cut off after a moment.
            let channel = c.writer.channel
            if abruptly {
                channel.close(promise: nil)
                futures.append(channel.closeFuture)
                continue
            }
            c.writer.closeAfterFlush()
            futures.append(channel.closeFuture)
        }
        return futures
    }
}
