import Foundation
import Testing
@testable import LearnModel

/// Random but valid messages for property tests and the fuzz corpus: every
/// value is already in wire form, so encode → decode must give it back.
public struct SessionMessageGenerator {
    public var rng: SplitMix64

    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    public mutating func int(_ n: Int) -> Int { rng.nextInt(below: n) }
    public mutating func bool() -> Bool { rng.next() & 1 == 0 }
    public mutating func u64() -> UInt64 {
        // Mostly small numbers, sometimes the extremes: varint edges matter.
        switch int(4) {
        case 0: UInt64(int(200))
        case 1: rng.next() >> UInt64(int(64))
        case 2: [0, 127, 128, 16383, 16384, UInt64.max, UInt64.max - 1][int(7)]
        default: UInt64(int(100_000))
        }
    }
    public mutating func index() -> MemberIndex { int(5) == 0 ? MemberIndex.max - MemberIndex(int(3)) : MemberIndex(int(6)) }
    /// A seq a frame may carry: 1 up to `SessionLimits.maxSeq`, edges included.
    public mutating func seq() -> UInt64 { min(max(1, u64()), SessionLimits.maxSeq) }
    public mutating func uuid() -> UUID {
        let a = rng.next(), b = rng.next()
        return UUID(uuid: withUnsafeBytes(of: (a, b)) { p in
            (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15])
        })
    }
    public mutating func string() -> String {
        let alphabet: [String] = ["a", "Z", " ", "ä", "ß", "€", "🖍", "日", "\u{0}", "\n", "é", "e\u{301}"]
        var s = ""
        for _ in 0..<int(12) { s += alphabet[int(alphabet.count)] }
        if int(20) == 0 { s = String(repeating: "x", count: SessionLimits.maxNameBytes) }
        return s
    }
    public mutating func bytes(max: Int) -> [UInt8] { (0..<int(max)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
    public mutating func time() -> WireTime {
        int(6) == 0 ? WireTime(milliseconds: [WireTime.limit, -WireTime.limit, 0][int(3)])
            : WireTime(milliseconds: 1_750_000_000_000 + Int64(int(10_000_000)))
    }
    public mutating func coordinate() -> Int32 {
        int(10) == 0 ? [Int32.max, Int32.min, 0][int(3)] : Int32(int(102_400)) - 1000
    }
    public mutating func point() -> WirePoint { WirePoint(x: coordinate(), y: coordinate()) }
    public mutating func segments(_ n: Int) -> [WireSegment] {
        (0..<n).map { _ in WireSegment(c1: point(), c2: point(), end: point()) }
    }
    public mutating func token() -> ResumeToken { ResumeToken(high: rng.next(), low: rng.next()) }
    public mutating func stamp() -> OpStamp { OpStamp(sender: index(), seq: seq()) }
    public mutating func color() -> RGBA8 {
        RGBA8(r: UInt8(int(256)), g: UInt8(int(256)), b: UInt8(int(256)), a: UInt8(int(256)))
    }
    public mutating func begin() -> StrokeBegin {
        StrokeBegin(stamp: stamp(), strokeID: uuid(), author: string(), color: color(),
                    width: WireLength(raw: UInt32(int(5000))), start: point(), time: time())
    }
    public mutating func op() -> SketchOp {
        switch int(3) {
        case 0:
            let start = point()
            let t0 = time()
            return .addStroke(Stroke(id: uuid(), author: string(), color: color().rgba,
                                     width: WireLength(raw: UInt32(int(5000))).value, start: start.point,
                                     segments: segments(int(30)).map(\.cubic), startedAt: t0.date,
                                     endedAt: time().date))
        case 1: return .eraseStroke(id: uuid(), by: string(), at: time().date)
        default: return .clear(by: string(), at: time().date)
        }
    }
    public mutating func lobby() -> Lobby {
        let members = (0..<int(6)).map { _ in
            LobbyMember(index: index(), peerID: uuid(), name: string(), role: bool() ? .drawer : .observer,
                        state: bool() ? .pending : .accepted, connected: bool(), hasAvatar: bool())
        }
        let params = SessionParams(name: string(), guides: LineGuides.allCases[int(3)],
                                   timeLimitMinutes: int(121), canvasWidth: 1 + int(4000), canvasHeight: 1 + int(4000))
        return Lobby(sessionID: uuid(), createdAt: time(), params: params,
                     settings: SessionSettings(clearAllowed: bool(), eraserAllowed: bool(), undoOwnAllowed: bool()),
                     hostPeerID: uuid(), members: members, started: bool(),
                     activityInfo: bool() ? ActivityInfo(kind: .sketch)
                         : ActivityInfo(kind: SessionActivity(rawValue: ["wordpost", "class-wall"][int(2)])!,
                                        bytes: bytes(max: 60)))
    }

    /// One message of the given kind (0..<kinds).
    public static let kinds = 21

    public mutating func message(kind: Int) -> SessionMessage {
        switch kind {
        case 0:
            return .hello(Hello(protocolVersion: UInt16(int(3)), peerID: uuid(), name: string(),
                                avatarPNG: bool() ? bytes(max: 300) : nil, role: bool() ? .drawer : .observer,
                                resumeToken: bool() ? token() : nil, accountID: bool() ? uuid() : nil))
        case 1: return .lobby(lobby())
        case 2: return .avatar(Avatar(member: index(), png: bytes(max: 500)))
        case 3: return .accepted(Accepted(token: token(), yourIndex: index(),
                                          sketch: SessionSketch(id: uuid(), creator: bool() ? uuid() : nil)))
        case 4:
            let reasons: [DeclineReason] = [.byHost, .full, .protocolMismatch(hostVersion: UInt16(int(70000) % 65536)),
                                            .sessionEnded, .lobbyFull, .other(UInt8(6 + int(249)))]
            return .declined(reasons[int(reasons.count)])
        case 5: return .start(Start(secondsLeft: bool() ? nil : [0, 7200, UInt32.max][int(3)]))
        case 6: return .end(End(reason: [.hostEnded, .timeUp, .hostLeft][int(3)], at: time()))
        case 7: return .memberLeft(MemberLeft(member: index()))
        case 8: return .ping(u64())
        case 9: return .pong(u64())
        case 10: return .bye
        case 11: return .strokeBegin(begin())
        case 12:
            let s = stamp()
            return .strokeSegments(StrokeSegments(stamp: s, seqSpan: UInt32(1 + UInt64(int(4)) % s.seq),
                                                  strokeID: uuid(), base: point(), segments: segments(int(40))))
        case 13: return .strokeEnd(StrokeEnd(stamp: stamp(), strokeID: uuid(), time: time()))
        case 14: return .erase(Erase(stamp: stamp(), strokeID: uuid(), author: string(), time: time()))
        case 15: return .clear(Clear(stamp: stamp(), author: string(), time: time()))
        case 16: return .snapshotBegin(SnapshotBegin(opCount: UInt32(int(100_000))))
        case 17: return .snapshotOps((0..<int(8)).map { _ in op() })
        case 18:
            let b = begin()
            let last = b.stamp.seq > SessionLimits.maxSeq - 10 ? b.stamp.seq : b.stamp.seq + UInt64(int(9))
            return .snapshotStroke(LiveStroke(begin: b, segments: segments(int(20)), lastSeq: last))
        case 19:
            return .snapshotEnd(SnapshotEnd(lastSeq: (0..<int(5)).map { _ in
                OpStamp(sender: index(), seq: min(u64(), SessionLimits.maxSeq)) }))
        default:
            let types = ActivityMessage.types
            return .activity(ActivityMessage(type: types.lowerBound + UInt8(int(types.count)), payload: bytes(max: 80)))
        }
    }

    public mutating func message() -> SessionMessage { message(kind: int(Self.kinds)) }
}

/// Polls `condition` until it holds. The timeout only stops a broken test
/// from hanging; passing never depends on how fast things are, so it is
/// generous: main-actor tests share one thread, and with both cores busy
/// (a build, the fuzzers `make test` runs beside the tests) a wait that
/// takes 0.2 s alone has taken over 30 s. A wait that
/// runs out says what it waited for, how long, and what `saw` tells of the
/// state it ended in (a phase, a count), so a failure explains itself.
/// It polls on the caller's actor, so a main-actor test may read its state.
public func eventually(isolation: isolated (any Actor)? = #isolation,
                       timeout: Duration = .seconds(120), _ what: String = "condition",
                       saw: (() async -> String)? = nil,
                       _ condition: () async -> Bool) async throws {
    let clock = ContinuousClock()
    let started = clock.now
    while !(await condition()) {
        if clock.now > started + timeout {
            let state = if let saw { "; saw \(await saw())" } else { "" }
            Issue.record("timed out after \(clock.now - started) waiting for \(what)\(state)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Collects a session's events for later inspection.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SessionEvent] = []

    public init() {}

    public var handler: @Sendable (SessionEvent) -> Void { { [self] e in record(e) } }

    public static func handler(for log: EventLog?) -> @Sendable (SessionEvent) -> Void {
        guard let log else { return { _ in } }
        return log.handler
    }

    public func record(_ e: SessionEvent) { lock.withLock { events.append(e) } }
    public var all: [SessionEvent] { lock.withLock { events } }
    public func contains(_ predicate: (SessionEvent) -> Bool) -> Bool { lock.withLock { events.contains(where: predicate) } }
    public func contains(_ event: SessionEvent) -> Bool { lock.withLock { events.contains(event) } }
}

/// What a drawing test needs from a session's host or a member (both
/// conform in the test targets that link the network code).
public protocol SessionPen: Sendable {
    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
    func addSegments(_ segments: [CubicSegment], to id: UUID)
    func endStroke(_ id: UUID)
    func document() async -> SketchDocument
}
