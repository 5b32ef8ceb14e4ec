import Foundation
import LearnSketch

/// Frame type numbers. Gaps are left for growth; a receiver skips any number
/// it does not know (forward compatible).
enum MessageType: UInt8 {
    case hello = 1, lobby = 2, avatar = 3, accepted = 4, declined = 5, start = 6, end = 7, memberLeft = 8
    case ping = 9, pong = 10, bye = 11, opRefused = 12, peek = 13
    case strokeBegin = 16, strokeSegments = 17, strokeEnd = 18, erase = 19, clear = 20
    case snapshotBegin = 32, snapshotOps = 33, snapshotStroke = 34, snapshotEnd = 35
    // 48–63 belong to the session's activity (`ActivityMessage`).
}

extension SessionMessage {
    /// The frame's version byte; see also `SessionProtocol.version`.
    public static let frameVersion: UInt8 = 1

    /// The type byte of an `avatar` frame: all a `peek` reads.
    public static let avatarFrameType = MessageType.avatar.rawValue

    /// The frame's type byte.
    var typeByte: UInt8 {
        if case .activity(let m) = self { return m.type }
        return type.rawValue
    }

    /// The type of one of the session's own messages.
    private var type: MessageType {
        switch self {
        case .hello: .hello
        case .peek: .peek
        case .lobby: .lobby
        case .avatar: .avatar
        case .accepted: .accepted
        case .declined: .declined
        case .start: .start
        case .end: .end
        case .memberLeft: .memberLeft
        case .ping: .ping
        case .pong: .pong
        case .bye: .bye
        case .opRefused: .opRefused
        case .strokeBegin: .strokeBegin
        case .strokeSegments: .strokeSegments
        case .strokeEnd: .strokeEnd
        case .erase: .erase
        case .clear: .clear
        case .snapshotBegin: .snapshotBegin
        case .snapshotOps: .snapshotOps
        case .snapshotStroke: .snapshotStroke
        case .snapshotEnd: .snapshotEnd
        case .activity: preconditionFailure("activity frames have the activity's type byte")
        }
    }

    /// The whole frame: u32 big-endian length of what follows, version, type,
    /// payload. The session's own limits keep every frame under the cap.
    public func frame() -> [UInt8] {
        var w = WireWriter(capacity: 64)
        w.u32BigEndian(0)
        w.u8(Self.frameVersion)
        w.u8(typeByte)
        encodePayload(into: &w)
        let length = UInt32(w.bytes.count - 4)
        w.bytes[0] = UInt8(truncatingIfNeeded: length >> 24)
        w.bytes[1] = UInt8(truncatingIfNeeded: length >> 16)
        w.bytes[2] = UInt8(truncatingIfNeeded: length >> 8)
        w.bytes[3] = UInt8(truncatingIfNeeded: length)
        return w.bytes
    }

    private func encodePayload(into w: inout WireWriter) {
        switch self {
        case .hello(let m):
            w.varint(m.protocolVersion)
            w.uuid(m.peerID)
            w.string(m.name)
            w.u8(m.role.rawValue)
            w.u8((m.avatarPNG == nil ? 0 : 1) | (m.resumeToken == nil ? 0 : 2) | (m.accountID == nil ? 0 : 4)
                 | (m.watchProof == nil ? 0 : 8))
            if let png = m.avatarPNG { w.blob(png) }
            if let t = m.resumeToken { w.token(t) }
            if let account = m.accountID { w.uuid(account) }
            // Last: an app that knows no proof reads up to here.
            if let proof = m.watchProof { w.raw(proof) }
        case .peek(let version):
            w.varint(version)
        case .lobby(let m):
            w.uuid(m.sessionID)
            w.zigzag(m.createdAt.milliseconds)
            w.string(m.params.name)
            w.u8(m.params.guides.wireCode)
            w.varint(m.params.timeLimitMinutes)
            w.varint(m.params.canvasWidth)
            w.varint(m.params.canvasHeight)
            w.u8(m.settings.wireFlags)
            w.uuid(m.hostPeerID)
            w.bool(m.started)
            w.varint(m.members.count)
            for member in m.members {
                w.varint(member.index)
                w.uuid(member.peerID)
                w.string(member.name)
                w.u8(member.role.rawValue)
                w.u8(member.state.rawValue)
                w.u8((member.connected ? 1 : 0) | (member.hasAvatar ? 2 : 0) | (member.sharesName ? 4 : 0))
            }
            w.string(m.activityInfo.kind.rawValue)
            w.blob(m.activityInfo.bytes)
        case .avatar(let m):
            w.varint(m.member)
            w.blob(m.png)
        case .accepted(let m):
            w.token(m.token)
            w.varint(m.yourIndex)
            w.uuid(m.sketch.id)
            w.bool(m.sketch.creator != nil)
            if let creator = m.sketch.creator { w.uuid(creator) }
            // Appended after the creator, so an app that reads no further
            // still reads the rest.
            w.bool(m.sketch.nonce != nil)
            if let nonce = m.sketch.nonce { w.uuid(nonce) }
        case .declined(let r):
            switch r {
            case .byHost: w.u8(1)
            case .full: w.u8(2)
            case .protocolMismatch(let v): w.u8(3); w.varint(v)
            case .sessionEnded: w.u8(4)
            case .lobbyFull: w.u8(5)
            case .other(let c): w.u8(c)
            }
        case .start(let m):
            w.varint(m.secondsLeft.map { UInt64($0) + 1 } ?? 0)
        case .end(let m):
            w.u8(m.reason.rawValue)
            w.zigzag(m.at.milliseconds)
        case .memberLeft(let m):
            w.varint(m.member)
        case .ping(let n), .pong(let n):
            w.varint(n)
        case .bye:
            break
        case .opRefused(let m):
            w.stamp(m.stamp)
            switch m.reason {
            case .sketchFull: w.u8(1)
            case .tooManyOpenStrokes: w.u8(2)
            case .outsideLimits: w.u8(3)
            case .other(let c): w.u8(c)
            }
        case .strokeBegin(let m):
            w.strokeBegin(m)
        case .strokeSegments(let m):
            w.stamp(m.stamp)
            w.varint(m.seqSpan)
            w.uuid(m.strokeID)
            w.point(m.base)
            w.segments(m.segments, from: m.base)
        case .strokeEnd(let m):
            w.stamp(m.stamp)
            w.uuid(m.strokeID)
            w.zigzag(m.time.milliseconds)
        case .erase(let m):
            w.stamp(m.stamp)
            w.uuid(m.strokeID)
            w.string(m.author)
            w.zigzag(m.time.milliseconds)
        case .clear(let m):
            w.stamp(m.stamp)
            w.string(m.author)
            w.zigzag(m.time.milliseconds)
        case .snapshotBegin(let m):
            w.varint(m.opCount)
        case .snapshotOps(let ops):
            w.varint(ops.count)
            for op in ops { w.op(op) }
        case .snapshotStroke(let s):
            w.strokeBegin(s.begin)
            w.varint(s.lastSeq)
            w.segments(s.segments, from: s.begin.start)
        case .snapshotEnd(let m):
            w.varint(m.lastSeq.count)
            for s in m.lastSeq { w.stamp(s) }
        case .activity(let m):
            w.raw(m.payload)
        }
    }

    /// Decodes one payload of a known type. Bytes after the last field are
    /// ignored: that is where a later version may append fields.
    static func decode(type: MessageType, _ r: inout WireReader) throws(PayloadError) -> SessionMessage {
        switch type {
        case .hello:
            let version = try r.varint(as: UInt16.self)
            let peer = try r.uuid()
            let name = try r.string(maxBytes: SessionLimits.maxNameBytes)
            let role = try r.role()
            let flags = try r.u8()
            let png = flags & 1 != 0 ? try r.blob(max: SessionLimits.maxAvatarBytes) : nil
            let token = flags & 2 != 0 ? try r.token() : nil
            let account = flags & 4 != 0 ? try r.uuid() : nil
            let proof = flags & 8 != 0 ? try r.rawBytes(WatchProof.size) : nil
            return .hello(Hello(protocolVersion: version, peerID: peer, name: name, avatarPNG: png, role: role,
                                resumeToken: token, accountID: account, watchProof: proof))
        case .peek:
            return .peek(protocolVersion: try r.varint(as: UInt16.self))
        case .lobby:
            let id = try r.uuid()
            let created = WireTime(milliseconds: try r.zigzag())
            let name = try r.string(maxBytes: SessionLimits.maxNameBytes)
            let guides = try r.guides()
            let limit = try r.varint(as: Int.self, max: SketchLimits.timeLimitMinutes.upperBound)
            let width = try r.varint(as: Int.self, max: 1 << 20)
            let height = try r.varint(as: Int.self, max: 1 << 20)
            guard width >= 1, height >= 1 else { throw PayloadError("empty canvas") }
            let s = try r.u8()
            let settings = SessionSettings(wireFlags: s)
            let host = try r.uuid()
            let started = try r.bool()
            let n = try r.count(minElementSize: 21)
            var members: [LobbyMember] = []
            members.reserveCapacity(n)
            for _ in 0..<n {
                let index = try r.varint(as: MemberIndex.self)
                let peer = try r.uuid()
                let name = try r.string(maxBytes: SessionLimits.maxNameBytes)
                let role = try r.role()
                guard let state = MemberState(rawValue: try r.u8()) else { throw PayloadError("bad member state") }
                let f = try r.u8()
                members.append(LobbyMember(index: index, peerID: peer, name: name, role: role, state: state,
                                           connected: f & 1 != 0, hasAvatar: f & 2 != 0, sharesName: f & 4 != 0))
            }
            let kindName = try r.string(maxBytes: SessionActivity.maxBytes)
            guard let kind = SessionActivity(rawValue: kindName) else { throw PayloadError("bad activity kind") }
            let info = ActivityInfo(kind: kind, bytes: try r.blob(max: ActivityInfo.maxBytes))
            let params = SessionParams(name: name, guides: guides, timeLimitMinutes: limit, canvasWidth: width,
                                       canvasHeight: height)
            return .lobby(Lobby(sessionID: id, createdAt: created, params: params, settings: settings,
                                hostPeerID: host, members: members, started: started, activityInfo: info))
        case .avatar:
            let member = try r.varint(as: MemberIndex.self)
            return .avatar(Avatar(member: member, png: try r.blob(max: SessionLimits.maxAvatarBytes)))
        case .accepted:
            let token = try r.token()
            let index = try r.varint(as: MemberIndex.self)
            let sketch = try r.uuid()
            let creator = try r.bool() ? try r.uuid() : nil
            let hasNonce = r.remaining > 0 ? try r.bool() : false
            let nonce = hasNonce ? try r.uuid() : nil
            return .accepted(Accepted(token: token, yourIndex: index,
                                      sketch: SessionSketch(id: sketch, creator: creator, nonce: nonce)))
        case .declined:
            switch try r.u8() {
            case 1: return .declined(.byHost)
            case 2: return .declined(.full)
            case 3: return .declined(.protocolMismatch(hostVersion: try r.varint(as: UInt16.self)))
            case 4: return .declined(.sessionEnded)
            case 5: return .declined(.lobbyFull)
            case let c: return .declined(.other(c))
            }
        case .start:
            let v = try r.varint(as: UInt64.self, max: UInt64(UInt32.max) + 1)
            return .start(Start(secondsLeft: v == 0 ? nil : UInt32(v - 1)))
        case .end:
            guard let reason = EndReason(rawValue: try r.u8()) else { throw PayloadError("bad end reason") }
            return .end(End(reason: reason, at: WireTime(milliseconds: try r.zigzag())))
        case .memberLeft:
            return .memberLeft(MemberLeft(member: try r.varint(as: MemberIndex.self)))
        case .ping:
            return .ping(try r.varint())
        case .pong:
            return .pong(try r.varint())
        case .bye:
            return .bye
        case .opRefused:
            let stamp = try r.stamp()
            let reason: OpRefusalReason
            switch try r.u8() {
            case 1: reason = .sketchFull
            case 2: reason = .tooManyOpenStrokes
            case 3: reason = .outsideLimits
            case let c: reason = .other(c)
            }
            return .opRefused(OpRefusal(stamp: stamp, reason: reason))
        case .strokeBegin:
            return .strokeBegin(try r.strokeBegin())
        case .strokeSegments:
            let stamp = try r.stamp()
            let span = try r.varint(as: UInt32.self)
            guard span >= 1, UInt64(span) <= stamp.seq else { throw PayloadError("bad seq span \(span)") }
            let id = try r.uuid()
            let base = try r.point()
            let segments = try r.segments(from: base)
            return .strokeSegments(StrokeSegments(stamp: stamp, seqSpan: span, strokeID: id, base: base, segments: segments))
        case .strokeEnd:
            let stamp = try r.stamp()
            let id = try r.uuid()
            return .strokeEnd(StrokeEnd(stamp: stamp, strokeID: id, time: WireTime(milliseconds: try r.zigzag())))
        case .erase:
            let stamp = try r.stamp()
            let id = try r.uuid()
            let author = try r.string(maxBytes: SessionLimits.maxNameBytes)
            return .erase(Erase(stamp: stamp, strokeID: id, author: author, time: WireTime(milliseconds: try r.zigzag())))
        case .clear:
            let stamp = try r.stamp()
            let author = try r.string(maxBytes: SessionLimits.maxNameBytes)
            return .clear(Clear(stamp: stamp, author: author, time: WireTime(milliseconds: try r.zigzag())))
        case .snapshotBegin:
            return .snapshotBegin(SnapshotBegin(opCount: try r.varint(as: UInt32.self)))
        case .snapshotOps:
            let n = try r.count(minElementSize: 2)
            var ops: [SketchOp] = []
            ops.reserveCapacity(n)
            for _ in 0..<n { ops.append(try r.op()) }
            return .snapshotOps(ops)
        case .snapshotStroke:
            let begin = try r.strokeBegin()
            let last = try r.varint()
            guard last >= begin.stamp.seq else { throw PayloadError("last seq before begin") }
            let segments = try r.segments(from: begin.start)
            return .snapshotStroke(LiveStroke(begin: begin, segments: segments, lastSeq: last))
        case .snapshotEnd:
            let n = try r.count(minElementSize: 2)
            var stamps: [OpStamp] = []
            stamps.reserveCapacity(n)
            for _ in 0..<n { stamps.append(try r.stamp(allowZero: true)) }
            return .snapshotEnd(SnapshotEnd(lastSeq: stamps))
        }
    }
}

extension LineGuides {
    var wireCode: UInt8 {
        switch self {
        case .none: 0
        case .squared: 1
        case .lined: 2
        }
    }
}

extension WireWriter {
    mutating func token(_ t: ResumeToken) {
        for shift in stride(from: 56, through: 0, by: -8) { u8(UInt8(truncatingIfNeeded: t.high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { u8(UInt8(truncatingIfNeeded: t.low >> UInt64(shift))) }
    }

    mutating func stamp(_ s: OpStamp) {
        varint(s.sender)
        varint(s.seq)
    }

    mutating func point(_ p: WirePoint) {
        zigzag(Int64(p.x))
        zigzag(Int64(p.y))
    }

    mutating func color(_ c: RGBA8) {
        u8(c.r); u8(c.g); u8(c.b); u8(c.a)
    }

    /// Each point as the difference from the point before it, along the
    /// control polygon (base → c1 → c2 → end → c1 …): neighbours are close.
    mutating func segments(_ segments: [WireSegment], from base: WirePoint) {
        varint(segments.count)
        var prev = base
        for s in segments {
            for p in [s.c1, s.c2, s.end] {
                zigzag(Int64(p.x) - Int64(prev.x))
                zigzag(Int64(p.y) - Int64(prev.y))
                prev = p
            }
        }
    }

    mutating func strokeBegin(_ m: StrokeBegin) {
        stamp(m.stamp)
        uuid(m.strokeID)
        string(m.author)
        color(m.color)
        varint(m.width.raw)
        point(m.start)
        zigzag(m.time.milliseconds)
    }

    mutating func op(_ op: SketchOp) {
        switch op {
        case .addStroke(let s):
            u8(0)
            uuid(s.id)
            string(SessionLimits.truncated(s.author))
            color(RGBA8(s.color))
            varint(WireLength(s.width).raw)
            let start = WirePoint(s.start)
            point(start)
            zigzag(WireTime(s.startedAt).milliseconds)
            zigzag(WireTime(s.endedAt).milliseconds)
            segments(Array(s.segments.prefix(SessionLimits.maxSegmentsPerStroke).map(WireSegment.init)), from: start)
        case .eraseStroke(let id, let by, let at):
            u8(1)
            uuid(id)
            string(SessionLimits.truncated(by))
            zigzag(WireTime(at).milliseconds)
        case .clear(let by, let at):
            u8(2)
            string(SessionLimits.truncated(by))
            zigzag(WireTime(at).milliseconds)
        }
    }
}

extension WireReader {
    mutating func token() throws(PayloadError) -> ResumeToken {
        var high: UInt64 = 0, low: UInt64 = 0
        for _ in 0..<8 { high = high << 8 | UInt64(try u8()) }
        for _ in 0..<8 { low = low << 8 | UInt64(try u8()) }
        return ResumeToken(high: high, low: low)
    }

    mutating func role() throws(PayloadError) -> PeerRole {
        guard let role = PeerRole(rawValue: try u8()) else { throw PayloadError("bad role") }
        return role
    }

    mutating func guides() throws(PayloadError) -> LineGuides {
        switch try u8() {
        case 0: return .none
        case 1: return .squared
        case 2: return .lined
        case let g: throw PayloadError("bad guides \(g)")
        }
    }

    /// Op seqs start at 1; a snapshot's table may say 0 (nothing yet).
    mutating func stamp(allowZero: Bool = false) throws(PayloadError) -> OpStamp {
        let sender = try varint(as: MemberIndex.self)
        let seq = try varint()
        guard allowZero || seq >= 1 else { throw PayloadError("seq 0") }
        guard seq <= SessionLimits.maxSeq else { throw PayloadError("seq \(seq) beyond the limit") }
        return OpStamp(sender: sender, seq: seq)
    }

    mutating func coordinate(_ v: Int64) throws(PayloadError) -> Int32 {
        guard let c = Int32(exactly: v) else { throw PayloadError("coordinate out of range") }
        return c
    }

    mutating func point() throws(PayloadError) -> WirePoint {
        let x = try coordinate(try zigzag())
        return WirePoint(x: x, y: try coordinate(try zigzag()))
    }

    mutating func color() throws(PayloadError) -> RGBA8 {
        RGBA8(r: try u8(), g: try u8(), b: try u8(), a: try u8())
    }

    mutating func segments(from base: WirePoint) throws(PayloadError) -> [WireSegment] {
        let n = try count(minElementSize: 6, max: SessionLimits.maxSegmentsPerStroke)
        var out: [WireSegment] = []
        out.reserveCapacity(n)
        var prev = base
        for _ in 0..<n {
            var pts: (WirePoint, WirePoint, WirePoint) = (prev, prev, prev)
            for k in 0..<3 {
                let dx = try zigzag(), dy = try zigzag()
                // Deltas are 33-bit at most when valid; anything wider overflows here.
                let (x, ox) = Int64(prev.x).addingReportingOverflow(dx)
                let (y, oy) = Int64(prev.y).addingReportingOverflow(dy)
                guard !ox, !oy else { throw PayloadError("coordinate out of range") }
                let p = WirePoint(x: try coordinate(x), y: try coordinate(y))
                switch k {
                case 0: pts.0 = p
                case 1: pts.1 = p
                default: pts.2 = p
                }
                prev = p
            }
            out.append(WireSegment(c1: pts.0, c2: pts.1, end: pts.2))
        }
        return out
    }

    mutating func strokeBegin() throws(PayloadError) -> StrokeBegin {
        let stamp = try stamp()
        let id = try uuid()
        let author = try string(maxBytes: SessionLimits.maxNameBytes)
        let color = try color()
        let width = WireLength(raw: try varint(as: UInt32.self))
        let start = try point()
        let time = WireTime(milliseconds: try zigzag())
        return StrokeBegin(stamp: stamp, strokeID: id, author: author, color: color, width: width, start: start, time: time)
    }

    mutating func op() throws(PayloadError) -> SketchOp {
        switch try u8() {
        case 0:
            let id = try uuid()
            let author = try string(maxBytes: SessionLimits.maxNameBytes)
            let color = try color()
            let width = WireLength(raw: try varint(as: UInt32.self))
            let start = try point()
            let startedAt = WireTime(milliseconds: try zigzag())
            let endedAt = WireTime(milliseconds: try zigzag())
            let segments = try segments(from: start)
            return .addStroke(Stroke(id: id, author: author, color: color.rgba, width: width.value, start: start.point,
                                     segments: segments.map(\.cubic), startedAt: startedAt.date, endedAt: endedAt.date))
        case 1:
            let id = try uuid()
            let by = try string(maxBytes: SessionLimits.maxNameBytes)
            return .eraseStroke(id: id, by: by, at: WireTime(milliseconds: try zigzag()).date)
        case 2:
            let by = try string(maxBytes: SessionLimits.maxNameBytes)
            return .clear(by: by, at: WireTime(milliseconds: try zigzag()).date)
        case let k:
            throw PayloadError("bad op kind \(k)")
        }
    }
}
