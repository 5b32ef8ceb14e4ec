import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

extension SessionHost: SessionPen {}
extension SessionClient: SessionPen {}

enum Loopback {
    /// Every test member comes from 127.0.0.1, so the per-address cap is
    /// raised unless a test is about it.
    static func host(acceptAll: Bool = true, options: TransportOptions = TransportOptions(),
                     events: EventLog? = nil, log: SessionLog = .silent,
                     maxPerAddress: Int = 64, capacity: SketchCapacity = .sketchFile,
                     group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> SessionHost {
        var config = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Loopback"))
        config.capacity = capacity
        config.acceptAll = acceptAll
        config.bindHost = "127.0.0.1"
        config.options = options
        config.options.maxConnectionsPerAddress = maxPerAddress
        config.log = log
        let trouble = TroubleLog()
        let handler = trouble.handler(passingOn: EventLog.handler(for: events))
        let host = try await SessionHost.start(config, group: group, onEvent: handler)
        TroubleLog.register(trouble, for: host)
        return host
    }

    static func join(_ host: SessionHost, _ name: String, role: PeerRole = .drawer,
                     options: TransportOptions = TransportOptions(), rejoinWindow: Duration = .seconds(10),
                     events: EventLog? = nil,
                     group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> SessionClient {
        var config = SessionClient.Configuration(host: "127.0.0.1", port: host.port, name: name, role: role)
        config.options = options
        config.rejoinWindow = rejoinWindow
        config.log = .silent
        let trouble = TroubleLog()
        let handler = trouble.handler(passingOn: EventLog.handler(for: events))
        let client = try await SessionClient.connect(config, group: group, onEvent: handler)
        TroubleLog.register(trouble, for: client)
        return client
    }

    /// Host + `n` drawers, all accepted and started.
    /// `group`: a test that keeps its loops busy for seconds brings its own,
    /// so that the tests running beside it are not kept waiting.
    static func startedSession(_ n: Int, options: TransportOptions = TransportOptions(),
                               hostEvents: EventLog? = nil,
                               group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> (SessionHost, [SessionClient]) {
        let host = try await Loopback.host(options: options, events: hostEvents, group: group)
        var clients: [SessionClient] = []
        for i in 1...n { clients.append(try await join(host, "P\(i)", options: options, group: group)) }
        for c in clients { try await eventually("accepted") { await c.state().phase == .accepted } }
        host.start()
        for c in clients { try await eventually("started") { await c.state().phase == .started } }
        return (host, clients)
    }

    /// Draws strokes the way the canvas does: StrokeBuilder fed a random path
    /// a few samples at a time, its segments handed over as they come.
    static func draw(_ pen: any SessionPen, strokes: Int, seed: UInt64, points: Int = 40,
                     pause: Duration = .milliseconds(1)) async throws -> [UUID] {
        var rng = SplitMix64(seed: seed)
        var ids: [UUID] = []
        for _ in 0..<strokes {
            let path = randomPath(&rng, count: points)
            var b = StrokeBuilder(author: "", pen: Pen(color: PenColor.allCases[rng.nextInt(below: 12)], width: .fine),
                                  start: path[0], at: Date())
            pen.beginStroke(id: b.id, color: b.color, width: b.width, start: b.start)
            for i in stride(from: 1, to: path.count, by: 4) {
                let segs = b.add(contentsOf: path[i..<min(path.count, i + 4)])
                if !segs.isEmpty { pen.addSegments(segs, to: b.id) }
                try await Task.sleep(for: pause)
            }
            pen.addSegments(b.finish(at: Date()).tail, to: b.id)
            pen.endStroke(b.id)
            ids.append(b.id)
        }
        return ids
    }

    /// Waits until every pen's document holds `strokes` strokes and they are
    /// all the same document.
    static func converge(_ pens: [any SessionPen], strokes: Int) async throws -> SketchDocument {
        try await eventually("\(strokes) strokes everywhere") {
            for p in pens where await p.document().strokes.count != strokes { return false }
            return true
        }
        var docs: [SketchDocument] = []
        for p in pens { docs.append(await p.document()) }
        // Pen 0 is the host: a copy that differs says which pen and how.
        for (i, d) in docs.enumerated() where d != docs[0] {
            let theirs = Dictionary(d.strokes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let differing = docs[0].strokes.filter { theirs[$0.id] != $0 }.map { s -> String in
                let count = theirs[s.id].map { String($0.segments.count) } ?? "none"
                return "\(s.author) \(s.id.uuidString.prefix(8)): host \(s.segments.count) segments, pen \(i) \(count)"
            }
            let order = d.ops.map(\.kind) == docs[0].ops.map(\.kind) ? "" : " (ops differ in order or kind)"
            Issue.record("pen \(i)'s sketch differs from the host's: \(differing.joined(separator: "; "))\(order)")
        }
        if docs.contains(where: { $0 != docs[0] }) {
            for (i, p) in pens.enumerated() { Issue.record("pen \(i): \(await diagnosis(of: p))") }
        }
        return docs[0]
    }
}

extension Loopback {
    /// What a pen went through: for a member its counts of ops it could not
    /// use, for the host its slow drops, and for both the connection trouble
    /// and snapshots it saw.
    static func diagnosis(of pen: any SessionPen) async -> String {
        var parts: [String] = []
        if let client = pen as? SessionClient {
            let s = await client.state()
            parts.append("member \(s.index.map(String.init) ?? "-") \(s.phase), rejected \(s.rejectedCount), "
                + "duplicates \(s.duplicateCount), gaps \(s.gapCount), resyncs \(s.resyncCount), unconfirmed \(s.unconfirmedOpCount)")
        } else if let host = pen as? SessionHost {
            let s = await host.statistics()
            parts.append("host, slow drops \(s.slowDrops), merged batches \(s.mergedBatches)")
        }
        let trouble = TroubleLog.log(for: pen)?.entries ?? []
        parts.append(trouble.isEmpty ? "no trouble seen" : trouble.joined(separator: ", "))
        return parts.joined(separator: "; ")
    }
}

/// The events of a loopback pen that explain a sketch gone different:
/// connections lost and dropped, snapshots taken, members leaving, ops
/// refused. Drawing events are left out, so a long test keeps little.
final class TroubleLog: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    /// Weakly held pens, so a pen made elsewhere at a freed pen's address
    /// is not given that pen's log.
    private struct Entry { weak var pen: AnyObject?; let log: TroubleLog }
    nonisolated(unsafe) private static var logs: [ObjectIdentifier: Entry] = [:]
    private static let logsLock = NSLock()

    var entries: [String] { lock.withLock { kept } }

    func handler(passingOn next: @escaping @Sendable (SessionEvent) -> Void) -> @Sendable (SessionEvent) -> Void {
        { [self] e in
            next(e)
            let entry: String? = switch e {
            case .documentReset(let d, let live): "snapshot of \(d.ops.count) ops and \(live.count) live strokes"
            case .connectionLost, .connectionDropped, .memberLeft, .opRefused, .ownStrokeRefused, .refused,
                 .accepted, .ended: "\(e)"
            default: nil
            }
            if let entry { lock.withLock { kept.append(entry) } }
        }
    }

    static func register(_ log: TroubleLog, for pen: AnyObject) {
        logsLock.withLock {
            logs = logs.filter { $0.value.pen != nil }
            logs[ObjectIdentifier(pen)] = Entry(pen: pen, log: log)
        }
    }

    static func log(for pen: any SessionPen) -> TroubleLog? {
        let pen = pen as AnyObject
        return logsLock.withLock { logs[ObjectIdentifier(pen)].flatMap { $0.pen === pen ? $0.log : nil } }
    }
}

/// A socket with no session behind it: sends whatever a test wants and,
/// with `autoRead` off, never reads (a stalled member).
final class RawPeer: Sendable {
    let channel: Channel

    private init(channel: Channel) { self.channel = channel }

    /// `source` picks the local address (any of 127/8 is this machine), so a
    /// test can play strangers on several classroom machines.
    static func connect(port: Int, source: String? = nil, autoRead: Bool = true,
                        receiveBuffer: Int? = nil,
                        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> RawPeer {
        var b = ClientBootstrap(group: group)
            .channelOption(ChannelOptions.autoRead, value: autoRead)
        if let source { b = b.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        if let receiveBuffer {
            b = b.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
        }
        return RawPeer(channel: try await b.connect(host: "127.0.0.1", port: port).get())
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
    }

    func send(_ m: SessionMessage) async throws { try await send(m.frame()) }

    var isOpen: Bool { channel.isActive }

    func close() async { try? await channel.close() }
}
