import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// The seed corpora of the libFuzzer targets (Tests/Fuzz/run.sh), one folder
/// per target under Tests/Fuzz/corpus/. `FUZZ_WRITE_CORPUS=1 swift test
/// --filter FuzzCorpus` rewrites them from real data: frames of every
/// message kind, sessions recorded between a real host and real peers,
/// sketch files, CSV pools and beacons. (The `.xopp` seeds need gzip and are
/// written by LearnRenderTests' XoppFuzzCorpusTests.)
///
/// On every `swift test` the frame corpus also goes through the decoder,
/// with random mutations of each file.
@Suite(.serialized) struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fuzz/corpus").standardizedFileURL
    static var writing: Bool { ProcessInfo.processInfo.environment["FUZZ_WRITE_CORPUS"] == "1" }

    static func frameSeeds() -> [(name: String, bytes: [UInt8])] {
        var g = SessionMessageGenerator(seed: 2024)
        var out: [(String, [UInt8])] = []
        for kind in 0..<SessionMessageGenerator.kinds {
            for n in 0..<2 {
                let m = g.message(kind: kind)
                out.append(("kind\(kind)-\(n)", m.frame()))
            }
        }
        // Streams of several frames, as a connection carries them.
        for n in 0..<6 {
            out.append(("stream-\(n)", (0..<(2 + g.int(5))).flatMap { _ in g.message().frame() }))
        }
        // The word game's frames as a member receives and sends them.
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let wordMessages: [(String, WordPostActivity.Message)] = [
            ("intent-place", .intent(.place(letter: 7, by: 1, slot: 2))),
            ("intent-send", .intent(.send(letter: 3, from: 1, to: 2))),
            ("game-begin", .gameBegin(WordPostGameBegin(seq: 4, poolID: "tiere", poolName: "Tiere", language: "de",
                                                        itemCount: 2, actionCount: 3))),
            ("pool-items", .poolItems(WordPostFixture.germanPool.items.prefix(4).enumerated().map {
                WordPostPoolItem($1, finishedBefore: $0 == 1) })),
            ("actions", .actions([.start(players: [0, 1, 2], seed: 42, at: date),
                                  .place(letter: 5, by: 1, slot: 0, at: date), .nextRound(at: date)])),
            ("moved", .moved(WordPostMove(seq: 5, actions: [.wrongPlacements(player: 1, count: 2),
                                                            .send(letter: 9, from: 1, to: 0)]))),
            ("refused", .refused(.place(letter: 7, by: 2, slot: 9))),
        ]
        for (name, message) in wordMessages {
            out.append(("wordpost-\(name)", SessionMessage.activity(WordPostActivity.encode(message)).frame()))
        }
        // A whole recorded session as one peer receives it.
        out.append(("session-to-peer", HostRecording.make().sentToPeer.flatMap { $0.frame() }))
        // The edges the decoder must refuse or skip.
        out.append(("unknown-type", [0, 0, 0, 4, 1, 250, 1, 2] + SessionMessage.bye.frame()))
        out.append(("oversized-length", [0x00, 0x10, 0x00, 0x01, 1, 1]))
        out.append(("short-length", [0, 0, 0, 1, 1]))
        out.append(("wrong-version", [0, 0, 0, 2, 7, 11]))
        out.append(("truncated", Array(SessionMessage.ping(99_999).frame().dropLast())))
        // A refused op and a full lobby, as a host sends them.
        out.append(("refusals", SessionMessage.opRefused(OpRefusal(stamp: OpStamp(sender: 1, seq: 7), reason: .sketchFull)).frame()
                        + SessionMessage.opRefused(OpRefusal(stamp: OpStamp(sender: 2, seq: 1), reason: .other(9))).frame()
                        + SessionMessage.declined(.lobbyFull).frame()))
        return out
    }

    static func outboundSeeds() -> [(name: String, bytes: [UInt8])] {
        let sent = HostRecording.make().sentToPeer
        var g = SessionMessageGenerator(seed: 99)
        // Appends only (so batches merge), appends with pops between, and a
        // mix of every kind.
        let backedUp: [UInt8] = sent.flatMap { [1] + FuzzScript.frame($0) }
        let draining: [UInt8] = sent.enumerated().flatMap { i, m -> [UInt8] in
            (i % 3 == 2 ? [0] : []) + [1] + FuzzScript.frame(m)
        }
        let mixed: [UInt8] = (0..<SessionMessageGenerator.kinds).flatMap { k -> [UInt8] in
            [1] + FuzzScript.frame(g.message(kind: k))
        }
        return [("backed-up", backedUp), ("draining", draining + [0, 0, 0]), ("every-kind", mixed)]
    }

    static func teamsketchSeeds() throws -> [(name: String, bytes: [UInt8])] {
        let generated = SketchGenerator(seed: 5).document(strokes: 6, pointsPerStroke: 12, name: "Zoo „Tiere“")
        var withOps = generated
        withOps.apply(.eraseStroke(id: generated.strokes[0].id, by: "Ana", at: Date(timeIntervalSince1970: 1_750_000_100)))
        withOps.apply(.clear(by: "Teacher", at: Date(timeIntervalSince1970: 1_750_000_200)))
        let empty = SketchDocument(meta: SketchMeta(id: UUID(uuidString: "8C5B9E0A-7C43-4E7E-9B9B-2A6D2B1A0C11")!,
                                                    name: "", guides: .squared,
                                                    createdAt: Date(timeIntervalSince1970: 1_750_000_000)))
        // Xournal++'s styles on strokes: pressure, fill, dashes, multiply.
        var styled = SketchDocument(meta: empty.meta)
        for (k, var stroke) in generated.strokes.prefix(4).enumerated() {
            switch k {
            case 0: stroke.widths = stroke.segments.indices.map { 1 + Double($0 % 5) }
            case 1: stroke.fill = 0.5
            case 2: stroke.dashes = [6, 3, 0.5, 3]
            default: stroke.blend = .multiply
            }
            styled.apply(.addStroke(stroke))
        }
        return try [("generated", generated), ("erase-and-clear", withOps), ("empty-squared", empty),
                    ("styled", styled)].map { name, doc in
            (name, [UInt8](try SketchFileFormat.encode(doc)))
        }
    }

    static func csvSeeds() -> [(name: String, bytes: [UInt8])] {
        let pools = [
            ("quotes", "word,hint,priority\n\"Bär\",\"Tier mit \"\"Honig\"\"\",1\nKäse,\"Gelb, mit Löchern\",2\n"),
            ("crlf-bom", "\u{FEFF}Word , Hint,PRIORITY\r\nFuß,Am Bein,\r\n\"Stra\r\nße\",Für Autos,3\r\n"),
            ("row-errors", "word,hint,priority\n,leer,1\nCafe\u{301},Kaffee,x\nEi,Vom Huhn,1,extra\n\"offen,2\n"),
            ("exported", WordPoolCSV.export(WordPostFixture.germanPool.items)),
        ]
        return pools.map { ($0.0, Array($0.1.utf8)) }
    }

    static func discoverySeeds() -> [(name: String, bytes: [UInt8])] {
        let sketch = SessionAnnouncement(sessionID: "7f3c2a10-5b1e-4c2d-9a8b-0e6f5d4c3b2a", hostName: "Frau Müller",
                                         activity: .sketch, port: 47_123)
        let word = SessionAnnouncement(sessionID: "wp-1", hostName: "Raum 2 🖍", activity: .wordpost, port: 9,
                                       lobbyOpen: false)
        // TXT records as the fuzz target reads them: a port, then entries,
        // each with its length first.
        func txt(_ entries: [String], port: Int) -> [UInt8] {
            [UInt8(port >> 8), UInt8(port & 0xFF)] + entries.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        }
        return [
            ("beacon-sketch", BeaconPacket(announcement: sketch).encoded()),
            ("beacon-wordpost", BeaconPacket(announcement: word).encoded()),
            ("beacon-goodbye", BeaconPacket(kind: .goodbye, announcement: sketch).encoded()),
            ("txt-sketch", txt(DiscoveryTXT.entries(for: sketch), port: 47_123)),
            ("txt-mixed-case-extra", txt(["V=1", "ID=abc", "id=ignored", "Host=Pi", "act=sketch", "open=1", "x=y", "flag"],
                                         port: 1)),
        ]
    }

    static func hostSeeds() -> [(name: String, bytes: [UInt8])] {
        let r = HostRecording.make()
        return [("session", r.hostScript), ("session-accept-all", HostRecording.make(flags: 0x20 | 0x0C).hostScript),
                ("wordpost-lobby", HostRecording.make(flags: 0x40).hostScript)]
    }

    static func peerSeeds() -> [(name: String, bytes: [UInt8])] {
        [("session", HostRecording.make().peerScript), ("observer", HostRecording.make(observer: true).peerScript)]
    }

    static func allSeeds() throws -> [(folder: String, seeds: [(name: String, bytes: [UInt8])])] {
        [("frames", frameSeeds()), ("host", hostSeeds()), ("peer", peerSeeds()), ("outbound", outboundSeeds()),
         ("teamsketch", try teamsketchSeeds()), ("csv", csvSeeds()), ("discovery", discoverySeeds())]
    }

    @Test func corporaArePresent() throws {
        for (folder, seeds) in try Self.allSeeds() {
            let dir = Self.root.appendingPathComponent(folder)
            if Self.writing {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                for seed in seeds {
                    try Data(seed.bytes).write(to: dir.appendingPathComponent(seed.name + ".bin"))
                }
            }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            #expect(Set(seeds.map { $0.name + ".bin" }).isSubset(of: Set(files)),
                    "run with FUZZ_WRITE_CORPUS=1 to write Tests/Fuzz/corpus/\(folder)")
        }
    }

    @Test func frameCorpusDecodesSafely() throws {
        let dir = Self.root.appendingPathComponent("frames")
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
        #expect(files.count >= 50, "run with FUZZ_WRITE_CORPUS=1 to write the corpus")
        var rng = SplitMix64(seed: 7)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            SessionFuzzing.check(bytes)
            for _ in 0..<200 {
                var mutated = bytes
                SessionFuzzing.mutate(&mutated, &rng)
                SessionFuzzing.check(mutated)
            }
        }
    }

    @Test func corpusFramesOfEveryKindDecode() throws {
        // The seeds are real frames: each decodes to exactly what was encoded.
        var g = SessionMessageGenerator(seed: 2024)
        for kind in 0..<SessionMessageGenerator.kinds {
            for n in 0..<2 {
                let m = g.message(kind: kind)
                let url = Self.root.appendingPathComponent("frames/kind\(kind)-\(n).bin")
                var d = FrameDecoder()
                d.append([UInt8](try Data(contentsOf: url)))
                #expect(try d.next() == m, "corpus file \(url.lastPathComponent) is stale")
            }
        }
    }

    @Test func recordedSessionReachesDrawingAndTheEnd() {
        // The state-machine seeds are only worth having if they get far.
        let r = HostRecording.make()
        #expect(r.sentToPeer.contains { if case .start = $0 { true } else { false } })
        #expect(r.sentToPeer.contains { if case .strokeSegments = $0 { true } else { false } })
        #expect(r.sentToPeer.contains { if case .snapshotEnd = $0 { true } else { false } })
        #expect(r.sentToPeer.contains { if case .end = $0 { true } else { false } })
    }
}

/// Writes the scripts the state-machine fuzz targets read (Tests/Fuzz/
/// Support/FuzzInput.swift): one kind byte per step, then its arguments; a
/// message is its frame with a two-byte length first.
struct FuzzScript {
    var bytes: [UInt8]

    static func frame(_ m: SessionMessage) -> [UInt8] {
        let f = m.frame()
        return [UInt8(f.count >> 8), UInt8(f.count & 0xFF)] + f
    }

    /// The ids and points the targets make from a byte, the same way.
    static func uuid(_ n: UInt8) -> UUID { UUID(uuid: (0xF0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n)) }
    static func point(_ x: UInt8, _ y: UInt8) -> Point { Point(Double(x) * 8 - 64, Double(y) * 8 - 64) }
}

/// A real host and two real peers (a drawer and one more drawer or an
/// observer) play a session: join, accept, start, draw, erase, clear, drop
/// and rejoin, end. What happens is recorded as a host-target script (every
/// event the host saw) and a peer-target script (everything peer 1 saw).
struct HostRecording {
    var host: HostSession
    var peers: [ConnectionID: PeerSession] = [:]
    var hostScript: [UInt8]
    var peerScript: [UInt8]
    var sentToPeer: [SessionMessage] = []
    /// The connection of the peer whose side is recorded (peer 1, until it rejoins).
    var watched: ConnectionID = 1
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// Built as the host target builds its host from the same first byte.
    init(flags: UInt8) {
        final class Tokens: @unchecked Sendable {
            let lock = NSLock()
            var n: UInt64 = 0
            func next() -> ResumeToken { lock.withLock { n += 1; return ResumeToken(high: 0x7465616D, low: n) } }
        }
        let tokens = Tokens()
        host = HostSession(
            sessionID: FuzzScript.uuid(200), hostPeerID: FuzzScript.uuid(201), hostName: "Host",
            params: SessionParams(name: "Fuzz", timeLimitMinutes: Int(flags & 3)),
            settings: SessionSettings(clearAllowed: flags & 4 != 0, eraserAllowed: flags & 8 != 0,
                                      undoOwnAllowed: flags & 16 != 0),
            acceptAll: flags & 32 != 0, createdAt: now,
            activity: flags & 0x40 == 0 ? SketchActivity.declaration
                : WordPostActivity.declaration(WordPostLobbyInfo(poolID: "fuzz", poolName: "Fuzz", language: "de",
                                                                  wordCount: 12)),
            makeToken: { tokens.next() })
        hostScript = [flags]
        peerScript = [0]
    }

    static func make(flags: UInt8 = 0x0C, observer: Bool = false) -> HostRecording {
        var r = HostRecording(flags: flags)
        r.peerScript = [observer ? 1 : 0]
        r.connect(1, PeerSession(peerID: FuzzScript.uuid(100), name: "Pupil", role: observer ? .observer : .drawer))
        r.connect(2, PeerSession(peerID: FuzzScript.uuid(101), name: "Ana", role: .drawer))
        r.hostStep([3, 1], .accept(1))
        r.hostStep([3, 2], .accept(2))
        r.hostStep([5], .start)
        // Peer 1 draws a stroke (an observer's pen is refused).
        let id = FuzzScript.uuid(1)
        r.peerStep([4, 0xFF, 0x00, 1, 12, 10, 10]) {
            $0.beginStroke(id: id, color: RGBA(hex: 0xFF0000), width: 3, start: FuzzScript.point(10, 10), at: $1)
        }
        let segs = [CubicSegment(c1: FuzzScript.point(11, 11), c2: FuzzScript.point(12, 12), end: FuzzScript.point(13, 13))]
        r.peerStep([5, 1, 1, 11, 11, 12, 12, 13, 13]) { p, _ in p.addSegments(segs, to: id) }
        r.peerStep([5, 1, 1, 11, 11, 12, 12, 13, 13]) { p, _ in p.addSegments(segs, to: id) }
        r.peerStep([6, 1]) { $0.endStroke(id, at: $1) }
        // The host draws, erases, clears.
        let hostStroke = FuzzScript.uuid(2)
        r.hostStep([8, 0x00, 0xFF, 2, 8, 20, 20],
                   .beginStroke(id: hostStroke, color: RGBA(hex: 0xFF), width: 2, start: FuzzScript.point(20, 20)))
        r.hostStep([9, 2, 1, 21, 21, 22, 22, 23, 23], .addSegments(id: hostStroke, segments: [
            CubicSegment(c1: FuzzScript.point(21, 21), c2: FuzzScript.point(22, 22), end: FuzzScript.point(23, 23))]))
        r.hostStep([10, 2], .endStroke(id: hostStroke))
        r.hostStep([11, 1], .erase(id: id))
        r.hostStep([6], .clear)
        // Peer 1 drops and rejoins with its token on a new connection: it
        // gets a snapshot of the sketch so far.
        r.hostStep([1, 1], .connectionClosed(1))
        r.peerScript.append(1)
        _ = r.peers[1]?.connectionLost(reason: "dropped")
        r.hostStep([0, 3], .connectionOpened(3))
        if var p = r.peers.removeValue(forKey: 1) {
            r.watched = 3
            r.peerScript.append(0)
            let fx = p.connected()
            r.peers[3] = p
            r.deliver(from: 3, fx)
        }
        r.hostStep([12, 0x10, 0x00], nil)
        r.hostStep([7, 0], .end(.hostEnded))
        return r
    }

    mutating func connect(_ c: ConnectionID, _ peer: PeerSession) {
        hostStep([0, UInt8(c)], .connectionOpened(c))
        var p = peer
        let fx = p.connected()
        if c == 1 { peerScript.append(0) }
        peers[c] = p
        deliver(from: c, fx)
    }

    /// One host event, already written as the target's script bytes.
    mutating func hostStep(_ script: [UInt8], _ event: HostSession.Event?) {
        hostScript += script
        guard let event else { return }
        apply(host.handle(event, now: now))
    }

    mutating func peerStep(_ script: [UInt8], _ body: (inout PeerSession, Date) -> [PeerSession.Effect]) {
        guard var p = peers[watched] else { return }
        let fx = body(&p, now)
        peers[watched] = p
        peerScript += script
        deliver(from: watched, fx)
    }

    private mutating func apply(_ effects: [HostSession.Effect]) {
        for case .send(let m, let targets) in effects {
            for c in targets {
                guard var p = peers[c] else { continue }
                if c == watched {
                    sentToPeer.append(m)
                    peerScript += [3] + FuzzScript.frame(m)
                }
                let fx = p.receive(m)
                peers[c] = p
                deliver(from: c, fx)
            }
        }
    }

    private mutating func deliver(from c: ConnectionID, _ effects: [PeerSession.Effect]) {
        for case .send(let m) in effects {
            hostStep([2, UInt8(c)] + FuzzScript.frame(m), .received(c, m))
        }
    }
}
