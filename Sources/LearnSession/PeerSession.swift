import Foundation
import LearnBasics
import LearnSketch

/// A joiner's or observer's side of a session as a pure state machine: it
/// builds the same document as the host from the host's messages, keeps the
/// strokes others are drawing so the UI can show them live, and drops
/// duplicates by (sender, seq).
///
/// Own ops go to the host and come back like everyone's; only then do they
/// enter the document, so every device applies ops in the host's one order.
/// Until they come back they wait in `unacked`, and after a rejoin the ones
/// the host never got are sent again (the snapshot says how far it got).
public struct PeerSession: Sendable {
    public enum Effect: Hashable, Sendable {
        case send(SessionMessage)
        case close(reason: String)
        /// This copy is out of step with the host's: drop the connection
        /// and rejoin at once (with the token), so the rejoin's snapshot
        /// replaces it.
        case resync(reason: String)
        case event(SessionEvent)
    }

    public enum Phase: Hashable, Sendable {
        case joining
        case accepted
        case started
        case ended(EndReason)
        case declined(DeclineReason)

        public var isFinal: Bool {
            switch self {
            case .ended, .declined: true
            default: false
            }
        }
    }

    public let peerID: UUID
    public let name: String
    public let role: PeerRole
    public let avatarPNG: [UInt8]?

    public private(set) var phase: Phase = .joining
    public private(set) var isConnected = false
    public private(set) var lobby: Lobby?
    public private(set) var index: MemberIndex?
    public private(set) var token: ResumeToken?
    /// The sketch the host let this device draw in (from `accepted`).
    public private(set) var sketch: SessionSketch?
    /// The school account signed in here, named in the hello.
    public let accountID: UUID?
    /// The document's id until the host names the sketch: never the
    /// session's id, which is heard by everyone.
    private let unnamedSketch = UUID()
    public private(set) var document: SketchDocument
    /// Strokes in progress (everyone's, own ones as the host confirmed them).
    public private(set) var live: [LiveStroke] = []
    public private(set) var lastSeq: [MemberIndex: UInt64] = [:]
    /// Diagnostics: ops seen twice, holes in a sender's sequence (the host
    /// dropped an invalid op), ops that did not fit the document.
    public private(set) var duplicateCount = 0
    public private(set) var gapCount = 0
    public private(set) var rejectedCount = 0
    /// Times this member found its copy out of step and rejoined for the
    /// host's (`resync`); at most `maxResyncs` a session, so a host whose
    /// pieces never fit cannot keep it reconnecting.
    public private(set) var resyncCount = 0
    public static let maxResyncs = 3
    /// Strokes this member left out, wholly or in part (a begin, a
    /// snapshot's copy or pieces outside the file's limits): their later
    /// pieces and end are expected not to fit.
    private var leftOut: Set<UUID> = []
    private static let maxLeftOut = 1024
    /// Stroke pieces in the document and the strokes in progress (the
    /// file limit counts both, like the host's).
    private var segmentCount = 0
    private var fileBytes = 0
    private let capacity = SketchCapacity.sketchFile

    private var nextSeq: UInt64 = 1
    private(set) var unacked: [SessionMessage] = []
    /// Own strokes being drawn: where each ends and how many segments it has.
    private var drawing: [UUID: (end: WirePoint, count: Int)] = [:]
    private var pendingSnapshot: (doc: SketchDocument, live: [LiveStroke], segments: Int, bytes: Int)?
    /// After a drop during drawing, own ops wait until the rejoin's snapshot
    /// says where the host stands; sent earlier they would overtake the
    /// resends and leave a hole in the sequence.
    private var awaitingSnapshot = false

    public init(peerID: UUID = UUID(), name: String, role: PeerRole, avatarPNG: [UInt8]? = nil,
                resumeToken: ResumeToken? = nil, accountID: UUID? = nil) {
        self.peerID = peerID
        self.accountID = accountID
        self.name = SessionLimits.truncated(name)
        self.role = role
        self.avatarPNG = avatarPNG
        self.token = resumeToken
        document = SketchDocument(meta: SketchMeta(name: ""))
    }

    private var sketchID: UUID { sketch?.id ?? unnamedSketch }

    /// A watcher's proof of its class (`WatchProof`), made for the session
    /// it joins.
    public var watchProof: [UInt8]?

    public var hello: SessionMessage {
        .hello(Hello(peerID: peerID, name: name, avatarPNG: avatarPNG, role: role, resumeToken: token,
                     accountID: accountID, watchProof: watchProof))
    }

    /// Own ops the host has not confirmed yet.
    public var unconfirmedOpCount: Int { unacked.count }

    /// The name this member's strokes carry: the host's choice in the lobby
    /// (a second "Anna" becomes "Anna 2"), else the name asked for.
    public var nameInSession: String {
        lobby?.members.first(where: { $0.index == index })?.name ?? name
    }

    // MARK: - Connection

    /// A connection to the host is up: say hello (with the token, if any).
    public mutating func connected() -> [Effect] {
        isConnected = true
        return [.send(hello)]
    }

    public mutating func connectionLost(reason: String) -> [Effect] {
        guard isConnected else { return [] }
        isConnected = false
        pendingSnapshot = nil
        awaitingSnapshot = phase == .started
        return phase.isFinal ? [] : [.event(.connectionLost(reason: reason))]
    }

    /// Rejoining failed for good: the host is gone. Strokes still in progress
    /// are committed as they are, and the document is this device's to keep.
    public mutating func hostUnreachable(now: Date = Date()) -> [Effect] {
        guard !phase.isFinal else { return [] }
        isConnected = false
        return finish(.hostLeft, at: WireTime(now))
    }

    // MARK: - Messages from the host

    public mutating func receive(_ message: SessionMessage) -> [Effect] {
        switch message {
        case .lobby(let received):
            let l = Self.cleaned(received)
            // Rejoining the address of a host that is gone can reach another
            // session that now uses the same port: that is not ours to join.
            if let known = lobby?.sessionID, known != l.sessionID, !phase.isFinal {
                isConnected = false
                return finish(.hostLeft, at: WireTime(Date())) + [.close(reason: "another session answered at this address")]
            }
            lobby = l
            if document.ops.isEmpty && live.isEmpty && document.meta != l.meta(sketch: sketchID) {
                document = SketchDocument(meta: l.meta(sketch: sketchID))
            }
            return [.event(.lobbyChanged(l))]
        case .avatar(let a):
            return [.event(.avatar(member: a.member, png: a.png))]
        case .accepted(let a):
            index = a.yourIndex
            token = a.token
            // The first sketch named stays this copy's: a rejoin is told
            // the same one, and a host that named another later could
            // only mix two sketches in one store.
            if sketch == nil { sketch = a.sketch }
            if let lobby, document.ops.isEmpty && live.isEmpty {
                document = SketchDocument(meta: lobby.meta(sketch: sketchID))
            }
            if phase == .joining { phase = .accepted }
            return [.event(.accepted(index: a.yourIndex, token: a.token, sketch: sketch ?? a.sketch))]
        case .declined(let r):
            phase = .declined(r)
            return [.event(.declined(r)), .close(reason: r.description)]
        case .start(let s):
            guard !phase.isFinal else { return [] }
            phase = .started
            return [.event(.started(secondsLeft: s.secondsLeft.map(Int.init)))]
        case .end(let e):
            guard !phase.isFinal else { return [] }
            return finish(e.reason, at: WireSketchLimits.clamped(e.at)) + [.close(reason: "session ended")]
        case .memberLeft(let m):
            return [.event(.memberLeft(m.member))]
        case .ping(let n):
            return [.send(.pong(n))]
        case .pong, .bye, .hello, .peek:
            return []
        case .opRefused(let r):
            return refused(r)
        case .snapshotBegin:
            pendingSnapshot = (SketchDocument(meta: lobby?.meta(sketch: sketchID) ?? document.meta), [], 0, 0)
            return []
        case .snapshotOps(let ops):
            guard var snap = pendingSnapshot else { return [] }
            pendingSnapshot = nil  // one copy of the document while it grows
            for op in ops {
                guard let op = Self.withinLimits(op), snap.doc.ops.count + snap.live.count < capacity.maxOps,
                      snap.segments + op.segmentCount <= capacity.maxSegments,
                      snap.bytes + SketchCapacity.bytes(of: op) <= capacity.maxFileBytes else { rejectedCount += 1; continue }
                if snap.doc.apply(op) {
                    snap.segments += op.segmentCount
                    snap.bytes += SketchCapacity.bytes(of: op)
                }
            }
            pendingSnapshot = snap
            return []
        case .snapshotStroke(let s):
            guard let snap = pendingSnapshot else { return [] }
            guard let stroke = Self.withinLimits(s), snap.doc.ops.count + snap.live.count < capacity.maxOps,
                  snap.segments + stroke.segments.count <= capacity.maxSegments,
                  snap.bytes + SketchCapacity.bytes(of: stroke) <= capacity.maxFileBytes else {
                rejectedCount += 1
                leaveOut(s.id)
                return []
            }
            pendingSnapshot?.live.append(stroke)
            pendingSnapshot?.segments += stroke.segments.count
            pendingSnapshot?.bytes += SketchCapacity.bytes(of: stroke)
            return []
        case .snapshotEnd(let e):
            return snapshotEnded(e)
        case .strokeBegin, .strokeSegments, .strokeEnd, .erase, .clear:
            return receiveOp(message)
        case .activity:
            // The activity's own: SessionClient hands these to it.
            return []
        }
    }

    private mutating func receiveOp(_ message: SessionMessage) -> [Effect] {
        guard let stamp = message.stamp, let first = message.firstSeq, !phase.isFinal else { return [] }
        let last = lastSeq[stamp.sender] ?? 0
        guard stamp.seq > last else {
            duplicateCount += 1
            return []
        }
        // A hole is no sign of a wrong copy: the host spends a seq on every
        // op it refuses or drops and relays nothing for it.
        if first > last + 1 { gapCount += 1 }
        lastSeq[stamp.sender] = stamp.seq
        let own = stamp.sender == index
        if own { unacked.removeAll { ($0.stamp?.seq ?? 0) <= stamp.seq } }

        // What the host sends must fit a sketch file too: a rogue host's ink
        // far off the page, impossible pens or dates, or more than a file
        // holds is left out here, as the host itself would have refused it.
        let roomForOp = document.ops.count + live.count < capacity.maxOps
        func roomFor(_ bytes: Int) -> Bool { fileBytes + bytes <= capacity.maxFileBytes }
        switch message {
        case .strokeBegin(var b):
            b.author = DisplayName.member(b.author)
            guard roomForOp, roomFor(SketchCapacity.bytes(strokeBy: b.author)), WireSketchLimits.contains(b),
                  !live.contains(where: { $0.id == b.strokeID }) else {
                if !live.contains(where: { $0.id == b.strokeID }) { leaveOut(b.strokeID) }
                return rejected()
            }
            let stroke = LiveStroke(begin: b)
            live.append(stroke)
            fileBytes += SketchCapacity.bytes(of: stroke)
            return [.event(.strokeBegan(stroke, isOwn: own))]
        case .strokeSegments(let s):
            guard let i = live.firstIndex(where: { $0.id == s.strokeID && $0.sender == stamp.sender }) else {
                return outOfStep(s.strokeID, "pieces of a stroke this device does not have")
            }
            // Pieces that do not start where this copy of the stroke ends:
            // the host's copy has pieces this one missed.
            guard s.base == live[i].wireEnd else { return outOfStep(s.strokeID, "pieces that do not continue the stroke") }
            guard WireSketchLimits.contains(s.segments), segmentCount + s.segments.count <= capacity.maxSegments,
                  roomFor(s.segments.count * SketchCapacity.bytesPerSegment) else {
                // Left out here: the stroke's next pieces cannot continue
                // this copy, and that is this member's doing, not the host's.
                leaveOut(s.strokeID)
                return rejected()
            }
            let firstIndex = live[i].segments.count
            guard live[i].append(s) else {
                leaveOut(s.strokeID)
                return rejected()
            }
            segmentCount += s.segments.count
            fileBytes += s.segments.count * SketchCapacity.bytesPerSegment
            return [.event(.strokeExtended(id: s.strokeID, sender: stamp.sender, firstIndex: firstIndex,
                                           segments: s.segments.map(\.cubic), isOwn: own))]
        case .strokeEnd(let e):
            guard let i = live.firstIndex(where: { $0.id == e.strokeID && $0.sender == stamp.sender }) else {
                return outOfStep(e.strokeID, "the end of a stroke this device does not have")
            }
            let op = SketchOp.addStroke(live.remove(at: i).stroke(endedAt: WireSketchLimits.clamped(e.time)))
            guard document.apply(op) else { return rejected() }
            return [.event(.opApplied(op, sender: stamp.sender, isOwn: own))]
        case .erase(let e):
            let op = SketchOp.eraseStroke(id: e.strokeID, by: DisplayName.member(e.author), at: e.time.date)
            guard roomForOp, roomFor(SketchCapacity.bytes(of: op)), WireSketchLimits.contains(e.time),
                  document.apply(op) else { return rejected() }
            fileBytes += SketchCapacity.bytes(of: op)
            return [.event(.opApplied(op, sender: stamp.sender, isOwn: own))]
        case .clear(let c):
            let op = SketchOp.clear(by: DisplayName.member(c.author), at: c.time.date)
            guard roomForOp, roomFor(SketchCapacity.bytes(of: op)), WireSketchLimits.contains(c.time) else {
                return rejected()
            }
            fileBytes += SketchCapacity.bytes(of: op)
            document.apply(op)
            return [.event(.opApplied(op, sender: stamp.sender, isOwn: own))]
        default:
            return []
        }
    }

    private mutating func leaveOut(_ stroke: UUID) {
        if leftOut.count < Self.maxLeftOut { leftOut.insert(stroke) }
    }

    private mutating func rejected() -> [Effect] {
        rejectedCount += 1
        return []
    }

    /// Pieces that fit only a copy this member does not have. The host
    /// relays only pieces that continue its own copy of the stroke, so the
    /// member's copy is the one that is wrong: it rejoins and takes the
    /// host's, unless it left the stroke (or pieces of it) out itself, or
    /// it has rejoined for this reason `maxResyncs` times.
    private mutating func outOfStep(_ stroke: UUID, _ why: String) -> [Effect] {
        rejectedCount += 1
        guard !leftOut.contains(stroke), phase == .started, isConnected, !awaitingSnapshot,
              resyncCount < Self.maxResyncs else { return [] }
        resyncCount += 1
        return [.resync(reason: "out of step with the host: \(why)")]
    }

    private mutating func snapshotEnded(_ end: SnapshotEnd) -> [Effect] {
        guard let snap = pendingSnapshot else { return [] }
        pendingSnapshot = nil
        document = snap.doc
        live = snap.live
        segmentCount = snap.segments
        fileBytes = snap.bytes
        lastSeq = Dictionary(end.lastSeq.map { ($0.sender, $0.seq) }, uniquingKeysWith: max)
        var fx: [Effect] = [.event(.documentReset(document, live: live))]
        awaitingSnapshot = false
        guard let index else { return fx }
        // Whatever the host already has is confirmed; the rest goes again, in order.
        let confirmed = lastSeq[index] ?? 0
        unacked.removeAll { ($0.stamp?.seq ?? 0) <= confirmed }
        // Decoding caps seqs far below the top; saturating all the same, so a
        // value built in memory cannot trap here either.
        nextSeq = max(nextSeq, confirmed == .max ? .max : confirmed + 1)
        if phase == .started { fx += unacked.map { .send($0) } }
        return fx
    }

    /// The host did not take one of this member's ops: everything up to its
    /// seq has been dealt with, so none of it waits for an echo any more, and
    /// a refused stroke is not continued.
    private mutating func refused(_ r: OpRefusal) -> [Effect] {
        guard let index, r.stamp.sender == index, !phase.isFinal else { return [] }
        // Only an op this member already sent can be refused; anything else
        // would clear what waits for its echo and swallow later echoes.
        guard r.stamp.seq < nextSeq else { return [] }
        // A refused begin takes its stroke along: pieces and end already on
        // their way are dropped by the host unanswered, so none may wait here.
        var stroke: UUID?
        for case .strokeBegin(let b) in unacked where b.stamp.seq == r.stamp.seq { stroke = b.strokeID }
        unacked.removeAll { m in
            if (m.stamp?.seq ?? 0) <= r.stamp.seq { return true }
            switch m {
            case .strokeSegments(let s): return s.strokeID == stroke
            case .strokeEnd(let e): return e.strokeID == stroke
            default: return false
            }
        }
        lastSeq[index] = max(lastSeq[index] ?? 0, r.stamp.seq)
        guard let stroke else { return [.event(.opRefused(r.reason, member: index))] }
        drawing[stroke] = nil
        return [.event(.opRefused(r.reason, member: index)), .event(.ownStrokeRefused(stroke))]
    }

    // MARK: - What a host may send

    /// Names as this device shows them, whatever the host sent: the host's
    /// and the members' names go through the same rule as on the host (a
    /// rogue host could send direction overrides or endless names), and the
    /// sketch's page size and date are kept within what a file may hold.
    static func cleaned(_ l: Lobby) -> Lobby {
        var l = l
        for i in l.members.indices { l.members[i].name = DisplayName.member(l.members[i].name) }
        l.params.name = DisplayName.member(l.params.name)
        let side = Int(SketchLimits.canvasSide.lowerBound)...Int(SketchLimits.canvasSide.upperBound)
        l.params.canvasWidth = min(max(l.params.canvasWidth, side.lowerBound), side.upperBound)
        l.params.canvasHeight = min(max(l.params.canvasHeight, side.lowerBound), side.upperBound)
        l.createdAt = WireSketchLimits.clamped(l.createdAt)
        return l
    }

    /// A snapshot op as a file may hold it (names cleaned), or nil.
    static func withinLimits(_ op: SketchOp) -> SketchOp? {
        switch op {
        case .addStroke(var s):
            s.author = DisplayName.member(s.author)
            guard (try? SketchValidation.check(s)) != nil else { return nil }
            return .addStroke(s)
        case .eraseStroke(let id, let by, let at):
            guard (try? SketchValidation.check(date: at)) != nil else { return nil }
            return .eraseStroke(id: id, by: DisplayName.member(by), at: at)
        case .clear(let by, let at):
            guard (try? SketchValidation.check(date: at)) != nil else { return nil }
            return .clear(by: DisplayName.member(by), at: at)
        }
    }

    static func withinLimits(_ s: LiveStroke) -> LiveStroke? {
        guard WireSketchLimits.contains(s.begin), WireSketchLimits.contains(s.segments) else { return nil }
        var s = s
        s.begin.author = DisplayName.member(s.begin.author)
        return s
    }

    private mutating func finish(_ reason: EndReason, at time: WireTime) -> [Effect] {
        var fx: [Effect] = []
        for stroke in live.sorted(by: LiveStroke.commitOrder) {
            let op = SketchOp.addStroke(stroke.stroke(endedAt: time))
            if document.apply(op) { fx.append(.event(.opApplied(op, sender: stroke.sender, isOwn: stroke.sender == index))) }
        }
        live = []
        unacked = []
        drawing = [:]
        phase = .ended(reason)
        fx.append(.event(.ended(reason)))
        return fx
    }

    // MARK: - Own drawing

    /// Own times are moved into the dates a sketch file holds, so a wrong
    /// clock on this device does not get every stroke refused.
    public mutating func beginStroke(id: UUID, color: RGBA, width: Double, start: Point, at date: Date = Date()) -> [Effect] {
        guard let index = drawingIndex() else { return refusal() }
        guard drawing[id] == nil else { return [] }
        let begin = StrokeBegin(stamp: takeStamp(index), strokeID: id, author: name, color: RGBA8(color),
                                width: WireLength(width), start: WirePoint(start), time: WireSketchLimits.clamped(WireTime(date)))
        drawing[id] = (begin.start, 0)
        return sendOwn(.strokeBegin(begin))
    }

    /// One batch of segments (the transport batches a frame's worth).
    /// Segments past the per-stroke limit are dropped.
    public mutating func addSegments(_ segments: [CubicSegment], to id: UUID) -> [Effect] {
        guard let index = drawingIndex(), let d = drawing[id] else { return [] }
        let room = SessionLimits.maxSegmentsPerStroke - d.count
        let wire = segments.prefix(max(0, room)).map(WireSegment.init)
        guard let last = wire.last else { return [] }
        drawing[id] = (last.end, d.count + wire.count)
        return sendOwn(.strokeSegments(StrokeSegments(stamp: takeStamp(index), strokeID: id, base: d.end,
                                                      segments: Array(wire))))
    }

    public mutating func endStroke(_ id: UUID, at date: Date = Date()) -> [Effect] {
        guard let index = drawingIndex(), drawing.removeValue(forKey: id) != nil else { return [] }
        return sendOwn(.strokeEnd(StrokeEnd(stamp: takeStamp(index), strokeID: id, time: WireSketchLimits.clamped(WireTime(date)))))
    }

    public mutating func erase(_ id: UUID, at date: Date = Date()) -> [Effect] {
        guard let index = drawingIndex() else { return refusal() }
        guard document.strokes.contains(where: { $0.id == id }) else { return [] }
        guard (lobby?.settings ?? SessionSettings()).eraseRule.allows(erasing: id, by: nameInSession, in: document) else {
            return [.event(.refused("the eraser may not take that line"))]
        }
        return sendOwn(.erase(Erase(stamp: takeStamp(index), strokeID: id, author: name, time: WireSketchLimits.clamped(WireTime(date)))))
    }

    private func drawingIndex() -> MemberIndex? {
        guard role == .drawer, phase == .started, let index else { return nil }
        return index
    }

    private func refusal() -> [Effect] {
        let why = role == .observer ? "observers do not draw"
            : phase == .started ? "not accepted" : phase.isFinal ? "the session is over" : "the session has not started"
        return [.event(.refused(why))]
    }

    private mutating func takeStamp(_ index: MemberIndex) -> OpStamp {
        defer { nextSeq += 1 }
        return OpStamp(sender: index, seq: nextSeq)
    }

    /// Sent now if connected, else kept for the rejoin.
    private mutating func sendOwn(_ m: SessionMessage) -> [Effect] {
        unacked.append(m)
        return isConnected && !awaitingSnapshot ? [.send(m)] : []
    }
}
