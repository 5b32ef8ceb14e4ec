import Foundation
import LearnSketch

/// Everything that travels between host and members. Each case is one frame
/// type (docs/PROTOCOL.md has the numbers and the byte layouts).
public enum SessionMessage: Hashable, Sendable {
    /// Joiner → host, first frame on every connection.
    case hello(Hello)
    /// A join screen → host, instead of a hello, as the only frame: the host
    /// answers with its own avatar (if it has one) and closes. So a nearby
    /// session's card shows the host's picture before anyone joins; the
    /// asker never enters the lobby. Carries the asker's protocol version.
    case peek(protocolVersion: UInt16)
    /// Host → everyone who said hello, after every change.
    case lobby(Lobby)
    /// Host → a member's avatar PNG, once per connection and member.
    case avatar(Avatar)
    /// Host → joiner: you are in.
    case accepted(Accepted)
    /// Host → joiner: you are not; the host closes the connection after it.
    case declined(DeclineReason)
    /// Host → accepted members: drawing is on.
    case start(Start)
    /// Host → everyone: the session is over.
    case end(End)
    /// Host → everyone: a member's connection went away (it may rejoin).
    case memberLeft(MemberLeft)
    case ping(UInt64)
    case pong(UInt64)
    /// Either side: closing on purpose.
    case bye
    /// Host → the member whose op it did not take (the sketch is full, too
    /// many strokes open at once, values outside the sketch limits): the
    /// member's app says so and forgets the op.
    case opRefused(OpRefusal)

    case strokeBegin(StrokeBegin)
    case strokeSegments(StrokeSegments)
    case strokeEnd(StrokeEnd)
    case erase(Erase)
    case clear(Clear)

    /// Catch-up for a late joiner or rejoiner: begin, ops in chunks, the
    /// strokes still being drawn, end (with each sender's last seq).
    case snapshotBegin(SnapshotBegin)
    case snapshotOps([SketchOp])
    case snapshotStroke(LiveStroke)
    case snapshotEnd(SnapshotEnd)

    /// A frame of the session's activity (types 48–63), carried unread:
    /// only the activity knows what it says.
    case activity(ActivityMessage)

    /// The op's stamp, for the five op messages.
    public var stamp: OpStamp? {
        switch self {
        case .strokeBegin(let m): m.stamp
        case .strokeSegments(let m): m.stamp
        case .strokeEnd(let m): m.stamp
        case .erase(let m): m.stamp
        case .clear(let m): m.stamp
        default: nil
        }
    }

    /// The lowest seq the message accounts for (a coalesced segment batch
    /// stands for `seqSpan` ops).
    var firstSeq: UInt64? {
        if case .strokeSegments(let m) = self { return m.stamp.seq - UInt64(m.seqSpan) + 1 }
        return stamp?.seq
    }
}

public struct Hello: Hashable, Sendable {
    public var protocolVersion: UInt16
    public var peerID: UUID
    public var name: String
    public var avatarPNG: [UInt8]?
    public var role: PeerRole
    public var resumeToken: ResumeToken?
    /// The school account signed in on the joiner's laptop, if any: the
    /// host names it as a member of the sketch to the school server (which
    /// checks it against the class). A claim, never proof of who is there.
    public var accountID: UUID?
    /// A watcher's `WatchProof` of holding its class's key: a host of a
    /// pupil of that class lets it watch without asking.
    public var watchProof: [UInt8]?

    public init(protocolVersion: UInt16 = SessionProtocol.version, peerID: UUID, name: String,
                avatarPNG: [UInt8]? = nil, role: PeerRole, resumeToken: ResumeToken? = nil, accountID: UUID? = nil,
                watchProof: [UInt8]? = nil) {
        self.protocolVersion = protocolVersion; self.peerID = peerID
        self.watchProof = watchProof.flatMap { $0.count == WatchProof.size ? $0 : nil }
        self.name = SessionLimits.truncated(name)
        // An avatar over the limit would get the whole hello rejected: go without.
        self.avatarPNG = avatarPNG.flatMap { $0.count <= SessionLimits.maxAvatarBytes ? $0 : nil }
        self.role = role; self.resumeToken = resumeToken; self.accountID = accountID
    }
}

public struct Avatar: Hashable, Sendable {
    public var member: MemberIndex
    public var png: [UInt8]
    public init(member: MemberIndex, png: [UInt8]) { self.member = member; self.png = png }
}

public struct Accepted: Hashable, Sendable {
    public var token: ResumeToken
    public var yourIndex: MemberIndex
    /// The sketch the session draws: told only to those let in.
    public var sketch: SessionSketch
    public init(token: ResumeToken, yourIndex: MemberIndex, sketch: SessionSketch) {
        self.token = token; self.yourIndex = yourIndex; self.sketch = sketch
    }
}

public enum DeclineReason: Hashable, Sendable, CustomStringConvertible {
    case byHost
    /// Four drawers are connected already.
    case full
    case protocolMismatch(hostVersion: UInt16)
    case sessionEnded
    /// Too many joiners are waiting for the host (or one more from the same
    /// machine): try again once the host has let some in.
    case lobbyFull
    /// A code from a newer peer.
    case other(UInt8)

    public var description: String {
        switch self {
        case .byHost: "declined by the host"
        case .full: "the session is full (4 drawers)"
        case .protocolMismatch(let v): "protocol mismatch (the host speaks version \(v), this device \(SessionProtocol.version))"
        case .sessionEnded: "the session has ended"
        case .lobbyFull: "the lobby is full, try again soon"
        case .other(let c): "declined (reason \(c))"
        }
    }
}

public struct Start: Hashable, Sendable {
    /// Time left when the message was sent; nil = no limit.
    public var secondsLeft: UInt32?
    public init(secondsLeft: UInt32?) { self.secondsLeft = secondsLeft }
}

public enum EndReason: UInt8, Hashable, Sendable, CustomStringConvertible {
    case hostEnded = 0
    case timeUp = 1
    /// The host quit, or (decided by a member itself) could not be reached.
    case hostLeft = 2

    public var description: String {
        switch self {
        case .hostEnded: "the host ended the session"
        case .timeUp: "time is up"
        case .hostLeft: "the host left"
        }
    }
}

public struct End: Hashable, Sendable {
    public var reason: EndReason
    /// Strokes still being drawn are committed at this time, in (sender, seq)
    /// order, by the host and by every member alike.
    public var at: WireTime
    public init(reason: EndReason, at: WireTime) { self.reason = reason; self.at = at }
}

public struct MemberLeft: Hashable, Sendable {
    public var member: MemberIndex
    public init(member: MemberIndex) { self.member = member }
}

public struct StrokeBegin: Hashable, Sendable {
    public var stamp: OpStamp
    public var strokeID: UUID
    /// Set by the host from the member's name, like `stamp.sender`.
    public var author: String
    public var color: RGBA8
    public var width: WireLength
    public var start: WirePoint
    /// Set by the host from its own clock, so replay order is one clock's.
    public var time: WireTime

    public init(stamp: OpStamp, strokeID: UUID, author: String, color: RGBA8, width: WireLength,
                start: WirePoint, time: WireTime) {
        self.stamp = stamp; self.strokeID = strokeID; self.author = SessionLimits.truncated(author); self.color = color
        self.width = width; self.start = start; self.time = time
    }
}

public struct StrokeSegments: Hashable, Sendable {
    /// `stamp.seq` is the last op this batch accounts for.
    public var stamp: OpStamp
    /// How many ops this batch stands for: 1, or more when a slow member's
    /// queue merged consecutive batches of one stroke.
    public var seqSpan: UInt32
    public var strokeID: UUID
    /// Where the stroke ended before this batch: the base of the deltas, and a
    /// check that nothing in between went missing.
    public var base: WirePoint
    public var segments: [WireSegment]

    public init(stamp: OpStamp, seqSpan: UInt32 = 1, strokeID: UUID, base: WirePoint, segments: [WireSegment]) {
        self.stamp = stamp; self.seqSpan = max(1, seqSpan); self.strokeID = strokeID
        self.base = base; self.segments = segments
    }
}

public struct StrokeEnd: Hashable, Sendable {
    public var stamp: OpStamp
    public var strokeID: UUID
    public var time: WireTime
    public init(stamp: OpStamp, strokeID: UUID, time: WireTime) {
        self.stamp = stamp; self.strokeID = strokeID; self.time = time
    }
}

public struct Erase: Hashable, Sendable {
    public var stamp: OpStamp
    public var strokeID: UUID
    public var author: String
    public var time: WireTime
    public init(stamp: OpStamp, strokeID: UUID, author: String, time: WireTime) {
        self.stamp = stamp; self.strokeID = strokeID; self.author = SessionLimits.truncated(author); self.time = time
    }
}

public struct Clear: Hashable, Sendable {
    public var stamp: OpStamp
    public var author: String
    public var time: WireTime
    public init(stamp: OpStamp, author: String, time: WireTime) {
        self.stamp = stamp; self.author = SessionLimits.truncated(author); self.time = time
    }
}

public struct SnapshotBegin: Hashable, Sendable {
    /// Ops that follow in `snapshotOps` frames (a progress hint for the UI).
    public var opCount: UInt32
    public init(opCount: UInt32) { self.opCount = opCount }
}

public struct SnapshotEnd: Hashable, Sendable {
    /// Each sender's last seq the snapshot includes, sorted by sender.
    public var lastSeq: [OpStamp]
    public init(lastSeq: [OpStamp]) { self.lastSeq = lastSeq }
}

/// Why the host did not take a member's op.
public enum OpRefusalReason: Hashable, Sendable, CustomStringConvertible {
    /// The sketch holds as many ops or stroke pieces as a sketch file may.
    case sketchFull
    /// The sender has as many strokes open (begun, not ended) as it may.
    case tooManyOpenStrokes
    /// A point, pen width or time outside what a sketch file may hold.
    case outsideLimits
    /// A code from a newer host.
    case other(UInt8)

    public var description: String {
        switch self {
        case .sketchFull: "the sketch is full"
        case .tooManyOpenStrokes: "too many strokes open at once"
        case .outsideLimits: "outside the sketch limits"
        case .other(let c): "refused (reason \(c))"
        }
    }
}

public struct OpRefusal: Hashable, Sendable {
    /// The refused op's stamp: every op of the member up to this seq has been
    /// dealt with by the host.
    public var stamp: OpStamp
    public var reason: OpRefusalReason
    public init(stamp: OpStamp, reason: OpRefusalReason) { self.stamp = stamp; self.reason = reason }
}
