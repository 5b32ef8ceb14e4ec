import Foundation
@testable import LearnModel
import TeamsketchTestSupport

/// Host and members wired together in memory, every message passed through
/// the real codec: the session rules, without sockets or timing.
struct SessionSimulation {
    var host: HostSession
    var peers: [ConnectionID: PeerSession] = [:]
    private var toHost: [(ConnectionID, SessionMessage)] = []
    private var toPeer: [ConnectionID: [SessionMessage]] = [:]
    /// Connections the host asked to close (closed once their queue is delivered).
    private var closing: Set<ConnectionID> = []
    var open: Set<ConnectionID> = []
    var hostEvents: [SessionEvent] = []
    var peerEvents: [ConnectionID: [SessionEvent]] = [:]
    var clock = Date(timeIntervalSince1970: 1_750_000_000)
    /// Frames from the host this returns true for never arrive (a frame
    /// lost on its way, which TCP itself never does).
    var lose: ((ConnectionID, SessionMessage) -> Bool)?
    /// Members that asked to rejoin for the host's copy (`resync`), in order.
    var resyncs: [ConnectionID] = []

    init(params: SessionParams = SessionParams(name: "Zoo"), settings: SessionSettings = SessionSettings(),
         acceptAll: Bool = false, sketch: SessionSketch = SessionSketch()) {
        host = HostSession(sketch: sketch, hostName: "Teacher", params: params, settings: settings, acceptAll: acceptAll,
                           createdAt: Date(timeIntervalSince1970: 1_750_000_000),
                           makeToken: { ResumeToken.random() })
    }

    mutating func tick(_ seconds: Double = 0.01) -> Date {
        clock += seconds
        return clock
    }

    /// `reachedAt`: the host's address the peer dialled (a class's watcher
    /// proves it).
    mutating func connect(_ c: ConnectionID, _ peer: PeerSession, reachedAt: String? = nil) {
        open.insert(c)
        peers[c] = peer
        hostDo(.connectionOpened(c, reachedAt: reachedAt))
        peerDo(c) { $0.connected() }
        run()
    }

    mutating func hostDo(_ event: HostSession.Event) {
        let fx = host.handle(event, now: tick())
        for e in fx {
            switch e {
            case .send(let m, let targets):
                let decoded = Self.throughCodec(m)
                for t in targets where open.contains(t) && !closing.contains(t) && lose?(t, decoded) != true {
                    toPeer[t, default: []].append(decoded)
                }
            case .close(let c, _):
                if open.contains(c) { closing.insert(c) }
            case .event(let ev):
                hostEvents.append(ev)
            }
        }
    }

    mutating func peerDo(_ c: ConnectionID, _ body: (inout PeerSession) -> [PeerSession.Effect]) {
        guard var p = peers[c] else { return }
        let fx = body(&p)
        peers[c] = p
        for e in fx {
            switch e {
            case .send(let m):
                if open.contains(c) { toHost.append((c, Self.throughCodec(m))) }
            case .close:
                drop(c)
            case .resync:
                resyncs.append(c)
                drop(c)
            case .event(let ev):
                peerEvents[c, default: []].append(ev)
            }
        }
    }

    /// The connection breaks: both ends notice.
    mutating func drop(_ c: ConnectionID) {
        guard open.remove(c) != nil else { return }
        closing.remove(c)
        toPeer[c] = nil
        toHost.removeAll { $0.0 == c }
        hostDo(.connectionClosed(c))
        peerDo(c) { $0.connectionLost(reason: "dropped") }
    }

    /// Reconnects a member on a new connection id (a rejoin).
    mutating func reconnect(_ old: ConnectionID, as new: ConnectionID) {
        guard let p = peers.removeValue(forKey: old) else { return }
        connect(new, p)
    }

    /// Delivers everything until nothing moves.
    mutating func run() {
        var moved = true
        while moved {
            moved = false
            if !toHost.isEmpty {
                let (c, m) = toHost.removeFirst()
                moved = true
                if open.contains(c) { hostDo(.received(c, m)) }
            }
            for c in toPeer.keys.sorted() {
                guard var q = toPeer[c], !q.isEmpty else { continue }
                let m = q.removeFirst()
                toPeer[c] = q
                moved = true
                peerDo(c) { $0.receive(m) }
            }
            for c in closing.sorted() where (toPeer[c] ?? []).isEmpty {
                moved = true
                drop(c)
            }
            // Like the transport: a streaming snapshot's next piece once
            // the member has read what was sent.
            for c in host.snapshotCursors.keys.sorted() where open.contains(c) && (toPeer[c] ?? []).isEmpty {
                moved = true
                hostDo(.snapshotDrained(c))
            }
        }
    }

    static func throughCodec(_ m: SessionMessage) -> SessionMessage {
        var d = FrameDecoder()
        d.append(m.frame())
        return (try? d.next()) ?? .bye
    }

    func events(_ c: ConnectionID) -> [SessionEvent] { peerEvents[c] ?? [] }
}

extension SessionSimulation {
    /// Host plus `n` accepted drawers on connections 1…n, started.
    static func started(_ n: Int, settings: SessionSettings = SessionSettings(),
                        capacity: SketchCapacity = .sketchFile) -> SessionSimulation {
        var sim = SessionSimulation(settings: settings)
        sim.host.capacity = capacity
        for i in 1...n {
            sim.connect(ConnectionID(i), PeerSession(name: "P\(i)", role: .drawer))
            sim.hostDo(.accept(MemberIndex(i)))
            sim.run()
        }
        sim.hostDo(.start)
        sim.run()
        return sim
    }

    /// Draws one stroke from a random path on member `c` (or the host if
    /// nil), in batches of a few segments, and returns its id.
    @discardableResult
    mutating func draw(_ c: ConnectionID?, seed: UInt64, points: Int = 40, width: Double = 6, offset: Double = 0,
                       finish: Bool = true) -> UUID {
        var rng = SplitMix64(seed: seed)
        let path = randomPath(&rng, count: points).map { Point($0.x + offset, $0.y + offset) }
        var b = StrokeBuilder(author: "x", color: PenColor.red.rgba, width: width, start: path[0], at: Date())
        let id = b.id
        if let c {
            peerDo(c) { $0.beginStroke(id: id, color: b.color, width: b.width, start: b.start) }
        } else {
            hostDo(.beginStroke(id: id, color: b.color, width: b.width, start: b.start))
        }
        run()
        for chunk in stride(from: 1, to: path.count, by: 4) {
            let segs = b.add(contentsOf: path[chunk..<min(path.count, chunk + 4)])
            guard !segs.isEmpty else { continue }
            if let c { peerDo(c) { $0.addSegments(segs, to: id) } } else { hostDo(.addSegments(id: id, segments: segs)) }
            run()
        }
        if finish {
            let tail = b.finish(at: Date()).tail
            if let c {
                peerDo(c) { $0.addSegments(tail, to: id) + $0.endStroke(id) }
            } else {
                hostDo(.addSegments(id: id, segments: tail))
                hostDo(.endStroke(id: id))
            }
            run()
        }
        return id
    }
}
