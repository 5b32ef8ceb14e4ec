import Foundation
@testable import LearnModel

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
