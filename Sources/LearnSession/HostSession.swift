import Foundation
import LearnBasics
import LearnSketch

/// Opaque name the transport gives each connection.
public typealias ConnectionID = UInt64

/// The host's side of a session as a pure state machine: an event goes in,
/// the state changes, and the effects to perform come out. No I/O, no clock,
/// no randomness of its own (times and tokens are passed in), so every rule
/// is unit-tested without a socket.
///
/// The session keeps the members, the lobby and the order of ops; the sketch
/// itself (its document, the strokes in progress, what still fits) is its
/// `SketchBoard`, as a word game's state is its `WordPostGame`. Late
/// joiners and rejoiners get a snapshot of the board plus the live tail.
/// The session decides who may draw: an op counts only if it arrives on
/// the connection of an accepted drawer, and it is stamped with that
/// member's index and name, whatever the message claimed.
public struct HostSession: Sendable {
    public static let maxDrawers = 4
    /// Everyone in the lobby at once (observers and waiting joiners
    /// included): keeps the lobby frame far below the frame cap.
    public static let maxMembers = 256
    public static let hostIndex: MemberIndex = 0
    /// Joiners waiting for the host at once, and from one address. A flood
    /// of strangers saying hello then costs the teacher at most a short list
    /// to clear (`declineAllWaiting`), never a lobby too long to find the
    /// pupils in; over the cap a joiner is declined as `lobbyFull`.
    public static let defaultMaxWaiting = 12
    public static let defaultMaxWaitingPerAddress = 1

    public enum Event: Sendable {
        /// `from`: the peer's address, or nil for this device itself (another
        /// app on the teacher's machine), which is not capped per address.
        /// `reachedAt`: this host's own address and port the peer dialled
        /// ("192.0.2.2:47851"; nil through the relay), which a watcher's
        /// proof names.
        case connectionOpened(ConnectionID, from: String? = nil, reachedAt: String? = nil)
        case received(ConnectionID, SessionMessage)
        case connectionClosed(ConnectionID)
        /// The transport wrote what was queued for this connection down to
        /// its low-water mark: the next piece of its snapshot may go.
        case snapshotDrained(ConnectionID)
        case accept(MemberIndex)
        case decline(MemberIndex)
        /// Sends away everyone still waiting, in one go.
        case declineAllWaiting
        case start
        case clear
        case end(EndReason)
        case beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
        case addSegments(id: UUID, segments: [CubicSegment])
        case endStroke(id: UUID)
        case erase(id: UUID)
    }

    public enum Effect: Hashable, Sendable {
        /// Send one message to these connections (encode once, write to each).
        case send(SessionMessage, to: [ConnectionID])
        /// Close after what was queued for it so far has been written.
        case close(ConnectionID, reason: String)
        case event(SessionEvent)
    }

    public struct Member: Sendable {
        public var index: MemberIndex
        public var peerID: UUID
        /// The name shown, unique in the lobby ("Anna 2" if "Anna" was taken).
        public var name: String
        /// The name asked for, cleaned: two members asking for the same one
        /// are both marked for the host.
        public var askedName: String
        public var role: PeerRole
        public var state: MemberState
        public var connection: ConnectionID?
        public var token: ResumeToken?
        public var avatar: [UInt8]?
        /// The school account the joiner's laptop named (`Hello.accountID`).
        public var accountID: UUID?
    }

    public let sessionID: UUID
    /// The sketch drawn, told only to accepted members.
    public let sketch: SessionSketch
    public let createdAt: WireTime
    public let params: SessionParams
    public let settings: SessionSettings
    public let hostPeerID: UUID
    /// What the session runs: its lobby block and its start rule. The
    /// session carries the block unread and starts by the rule.
    public let activity: ActivityDeclaration
    /// Accept everyone without asking (drawers up to the limit);
    /// `host --accept-all`.
    public var acceptAll: Bool
    /// Joiners let in without asking the host, whatever `acceptAll` says:
    /// a hook only tests set (a class's wall proves its key instead, below);
    /// a hello's own claims (name, peer id) are never proof.
    public var isTrustedJoiner: @Sendable (Hello) -> Bool = { _ in false }
    /// The key of the class of the pupil signed in on the host's laptop:
    /// a watcher whose hello proves it (`WatchProof`) watches at once.
    public var classWatchKey: [UInt8]?
    /// How much the sketch may hold; past it ops are refused.
    public var capacity: SketchCapacity {
        get { board.capacity }
        set { board.capacity = newValue }
    }
    public var maxWaiting = HostSession.defaultMaxWaiting
    public var maxWaitingPerAddress = HostSession.defaultMaxWaitingPerAddress

    /// Who is in the lobby, host first. Members who left for good (declined,
    /// gave up waiting, said bye) are dropped, so nothing of them is kept or
    /// sent; indices are never reused.
    public internal(set) var members: [Member]
    private var nextIndex: MemberIndex = 1
    /// nil: connected, no hello yet.
    public internal(set) var connections: [ConnectionID: MemberIndex?] = [:]
    public private(set) var startedAt: WireTime?
    public private(set) var ended: EndReason?
    /// The sketch drawn: its document, strokes in progress and capacity.
    public private(set) var board: SketchBoard
    public var document: SketchDocument { board.document }
    /// Strokes in progress, in the order they began.
    public var live: [LiveStroke] { board.live }
    /// Each sender's last seq taken (also for ops dropped as invalid).
    public private(set) var lastSeq: [MemberIndex: UInt64] = [:]
    /// Peers' addresses (none for this device), for the waiting cap.
    private var sources: [ConnectionID: String] = [:]
    /// The address each peer dialled to reach this host.
    private var reached: [ConnectionID: String] = [:]
    /// Snapshots being streamed: the index of the next op each connection
    /// gets. Ops broadcast meanwhile skip these connections; the snapshot's
    /// last piece carries them, so its table of last seqs is exact.
    public private(set) var snapshotCursors: [ConnectionID: Int] = [:]
    private var makeToken: @Sendable () -> ResumeToken

    public init(sessionID: UUID = UUID(), sketch: SessionSketch = SessionSketch(), hostPeerID: UUID = UUID(),
                hostName: String, hostAvatar: [UInt8]? = nil,
                params: SessionParams, settings: SessionSettings = SessionSettings(), acceptAll: Bool = false,
                createdAt: Date = Date(), activity: ActivityDeclaration = SketchActivity.declaration,
                makeToken: @escaping @Sendable () -> ResumeToken = { .random() }) {
        self.sessionID = sessionID
        self.sketch = sketch
        self.activity = activity
        self.hostPeerID = hostPeerID
        var params = params
        // The sketch's name is shown and stored like a member's.
        params.name = DisplayName.member(params.name)
        self.params = params
        self.settings = settings
        self.acceptAll = acceptAll
        self.createdAt = WireSketchLimits.clamped(WireTime(createdAt))
        self.makeToken = makeToken
        let avatar = hostAvatar.flatMap { $0.count <= SessionLimits.maxAvatarBytes ? $0 : nil }
        let name = DisplayName.member(hostName)
        members = [Member(index: Self.hostIndex, peerID: hostPeerID, name: name.isEmpty ? "Host" : name,
                          askedName: name, role: .drawer, state: .accepted, avatar: avatar, accountID: sketch.creator)]
        board = SketchBoard(meta: SketchMeta(name: ""))
        board = SketchBoard(meta: lobby.meta(sketch: sketch.id))
    }

    /// The school accounts of the drawers let in, the host's first, in the
    /// order they came: the members the host's laptop names to the school
    /// server (the host's own too: whoever syncs first, the host draws).
    public var memberAccounts: [UUID] {
        members.filter { $0.role == .drawer && $0.state == .accepted }.compactMap(\.accountID)
    }

    public var isStarted: Bool { startedAt != nil }
    public var hostName: String { members[0].name }

    /// When the time limit runs out, if there is one and drawing has started.
    public var deadline: Date? {
        guard let startedAt, params.timeLimitMinutes > 0 else { return nil }
        return WireTime(milliseconds: startedAt.milliseconds + Int64(params.timeLimitMinutes) * 60_000).date
    }

    public var lobby: Lobby {
        var seen: [String: Int] = [:]
        for m in members { seen[Self.nameKey(m.askedName), default: 0] += 1 }
        let shared = Set(seen.filter { $0.value > 1 }.keys)
        return Lobby(sessionID: sessionID, createdAt: createdAt, params: params, settings: settings, hostPeerID: hostPeerID,
              members: members.map { m in
                  LobbyMember(index: m.index, peerID: m.peerID, name: m.name, role: m.role, state: m.state,
                              connected: m.index == Self.hostIndex || m.connection != nil, hasAvatar: m.avatar != nil,
                              sharesName: shared.contains(Self.nameKey(m.askedName)))
              },
              started: isStarted, activityInfo: activity.info)
    }

    // MARK: - Events

    public mutating func handle(_ event: Event, now: Date) -> [Effect] {
        // A machine whose clock is far off (a dead clock battery) still
        // draws: its times move to the nearest a sketch file holds. What it
        // stamps is its own, so there is nothing to refuse.
        let now = WireSketchLimits.clamped(WireTime(now))
        var fx: [Effect] = []
        switch event {
        case .connectionOpened(let c, let source, let reachedAt):
            connections[c] = .some(nil)
            sources[c] = source
            reached[c] = reachedAt
        case .received(let c, let message):
            guard let binding = connections[c] else { break }
            if let index = binding {
                receive(message, from: c, member: index, now: now, &fx)
            } else {
                receiveFirst(message, from: c, now: now, &fx)
            }
        case .connectionClosed(let c):
            connectionClosed(c, &fx)
        case .snapshotDrained(let c):
            continueSnapshot(to: c, &fx)
        case .accept(let i):
            accept(i, now: now, &fx)
        case .decline(let i):
            decline(i, &fx)
        case .declineAllWaiting:
            declineAllWaiting(&fx)
        case .start:
            start(now: now, &fx)
        case .clear:
            localClear(now: now, &fx)
        case .end(let reason):
            end(reason, now: now, &fx)
        case .beginStroke(let id, let color, let width, let start):
            guard canDrawLocally(&fx) else { break }
            let begin = StrokeBegin(stamp: nextHostStamp(), strokeID: id, author: hostName, color: RGBA8(color),
                                    width: WireLength(width), start: WirePoint(start), time: now)
            if let why = board.refusal(of: begin) {
                return fx + [.event(.opRefused(why, member: Self.hostIndex)), .event(.ownStrokeRefused(id))]
            }
            applyBegin(begin, own: true, &fx)
        case .addSegments(let id, let segments):
            guard !segments.isEmpty, canDrawLocally(&fx),
                  let stroke = board.liveStroke(id, of: Self.hostIndex),
                  stroke.segments.count + segments.count <= SessionLimits.maxSegmentsPerStroke else { break }
            let batch = StrokeSegments(stamp: nextHostStamp(), strokeID: id, base: stroke.wireEnd,
                                       segments: segments.map(WireSegment.init))
            if let why = board.refusal(of: batch) { return fx + [.event(.opRefused(why, member: Self.hostIndex))] }
            applySegments(batch, own: true, &fx)
        case .endStroke(let id):
            guard canDrawLocally(&fx), board.liveStroke(id, of: Self.hostIndex) != nil else { break }
            applyEnd(StrokeEnd(stamp: nextHostStamp(), strokeID: id, time: now), own: true, &fx)
        case .erase(let id):
            guard canDrawLocally(&fx) else { break }
            guard board.contains(stroke: id) else { break }
            guard settings.eraseRule.allows(erasing: id, by: hostName, in: document) else {
                fx.append(.event(.refused("the eraser may not take that line"))); break
            }
            guard board.hasRoomForMark(by: hostName) else { return fx + [.event(.opRefused(.sketchFull, member: Self.hostIndex))] }
            applyErase(Erase(stamp: nextHostStamp(), strokeID: id, author: hostName, time: now), own: true, &fx)
        }
        return fx
    }

    // MARK: - Joining

    /// Whether a frame of this type may be read at all on this connection:
    /// a connection that has not said hello is nobody, and nothing it sends
    /// but its hello (or a peek) is decoded (the transport asks before decoding).
    public func admitsFrame(type: UInt8, on c: ConnectionID) -> Bool {
        guard let binding = connections[c] else { return false }
        return binding != nil || type == MessageType.hello.rawValue || type == MessageType.peek.rawValue
    }

    /// Connections that have not said hello yet, oldest (lowest id) first.
    public var connectionsWithoutHello: [ConnectionID] {
        connections.compactMap { $0.value == nil ? $0.key : nil }.sorted()
    }

    private mutating func receiveFirst(_ message: SessionMessage, from c: ConnectionID, now: WireTime,
                                       _ fx: inout [Effect]) {
        if case .peek = message {
            // A join screen asks for the card's picture: the host's own,
            // which any joiner gets right after its hello anyway. Nothing
            // else is said, and the connection ends here.
            if let png = members.first(where: { $0.index == Self.hostIndex })?.avatar {
                fx.append(.send(.avatar(Avatar(member: Self.hostIndex, png: png)), to: [c]))
            }
            fx.append(.close(c, reason: "peek answered"))
            forget(c)
            return
        }
        guard case .hello(let h) = message else {
            fx.append(.close(c, reason: "expected hello first"))
            forget(c)
            return
        }
        handleHello(h, from: c, now: now, &fx)
    }

    private mutating func handleHello(_ hello: Hello, from c: ConnectionID, now: WireTime, _ fx: inout [Effect]) {
        guard hello.protocolVersion == SessionProtocol.version else {
            return decline(c, .protocolMismatch(hostVersion: SessionProtocol.version), &fx)
        }
        guard ended == nil else { return decline(c, .sessionEnded, &fx) }

        // Rejoin: the token names the member; the role and name it had stand.
        if let token = hello.resumeToken,
           let i = members.firstIndex(where: { $0.token == token }) {
            if members[i].role == .drawer && members[i].connection == nil
                && connectedDrawers >= Self.maxDrawers {
                return decline(c, .full, &fx)
            }
            if let old = members[i].connection {
                forget(old)
                fx.append(.close(old, reason: "replaced by a rejoin"))
            }
            bind(c, to: i)
            fx.append(.send(.accepted(Accepted(token: token, yourIndex: members[i].index, sketch: sketch)), to: [c]))
            sendAvatars(to: c, &fx)
            broadcastLobby(&fx)
            if isStarted { sendStartAndSnapshot(to: c, now: now, &fx) }
            return
        }

        // Indices are never reused; after four billion joins (days of a
        // stranger reconnecting flat out) the lobby is full, not a crash.
        guard members.count < Self.maxMembers, nextIndex < MemberIndex.max else { return decline(c, .full, &fx) }
        let letIn = acceptAll || isTrustedJoiner(hello) || provesClass(hello, on: c)
        if !letIn && !hasRoomToWait(from: sources[c]) { return decline(c, .lobbyFull, &fx) }
        let index = nextIndex
        nextIndex += 1
        let asked = DisplayName.member(hello.name)
        members.append(Member(index: index, peerID: hello.peerID, name: uniqueName(asked), askedName: asked,
                              role: hello.role, state: .pending, avatar: hello.avatarPNG, accountID: hello.accountID))
        let i = members.count - 1
        bind(c, to: i)
        // The host's own screen shows the joiner's picture beside the name
        // at once, to help decide who it is.
        if let png = hello.avatarPNG { fx.append(.event(.avatar(member: index, png: png))) }
        // Accepted members' avatars only: a waiting joiner's picture is for
        // the host's eyes until the host lets it in.
        sendAvatars(to: c, &fx)
        // Watchers see the whole sketch and everyone's names, so they wait
        // for the host like painters do.
        if letIn {
            if hello.role == .observer || connectedDrawers < Self.maxDrawers {
                admit(i, now: now, &fx)
            } else {
                members.remove(at: i)
                decline(c, .full, &fx)
                broadcastLobby(&fx)
            }
        } else {
            broadcastLobby(&fx)
        }
    }

    /// A watcher of the host's class (its teacher's wall): never a painter,
    /// and only over a connection to the address its proof names (a proof
    /// passed on through another machine names that one).
    private func provesClass(_ hello: Hello, on c: ConnectionID) -> Bool {
        guard hello.role == .observer, let key = classWatchKey, let address = reached[c] else { return false }
        return WatchProof.verify(hello.watchProof, key: key, session: sessionID, watcher: hello.peerID, dialled: address)
    }

    private mutating func accept(_ index: MemberIndex, now: WireTime, _ fx: inout [Effect]) {
        guard let i = members.firstIndex(where: { $0.index == index }),
              members[i].state == .pending, members[i].connection != nil else {
            return fx.append(.event(.refused("nobody is waiting as member \(index)")))
        }
        guard members[i].role == .observer || connectedDrawers < Self.maxDrawers else {
            return fx.append(.event(.refused("at most \(Self.maxDrawers) can draw")))
        }
        admit(i, now: now, &fx)
    }

    private mutating func admit(_ i: Int, now: WireTime, _ fx: inout [Effect]) {
        let token = makeToken()
        members[i].state = .accepted
        members[i].token = token
        guard let c = members[i].connection else { return }
        fx.append(.send(.accepted(Accepted(token: token, yourIndex: members[i].index, sketch: sketch)), to: [c]))
        if let png = members[i].avatar {
            fx.append(.send(.avatar(Avatar(member: members[i].index, png: png)), to: helloedConnections(except: c)))
        }
        broadcastLobby(&fx)
        if isStarted { sendStartAndSnapshot(to: c, now: now, &fx) }
    }

    /// Sends anyone away: a waiting joiner at any time, an accepted drawer
    /// only before the start (after it, their ink is part of the sketch), an
    /// observer at any time.
    private mutating func decline(_ index: MemberIndex, _ fx: inout [Effect]) {
        guard index != Self.hostIndex,
              let i = members.firstIndex(where: { $0.index == index }) else {
            return fx.append(.event(.refused("no member \(index) to decline")))
        }
        let m = members[i]
        guard m.state == .pending || m.role == .observer || !isStarted else {
            return fx.append(.event(.refused("\(m.name) is drawing already")))
        }
        members.remove(at: i)
        sendAway(m, &fx)
        broadcastLobby(&fx)
    }

    private mutating func sendAway(_ m: Member, _ fx: inout [Effect]) {
        guard let c = m.connection else { return }
        forget(c)
        fx.append(.send(.declined(.byHost), to: [c]))
        fx.append(.close(c, reason: "declined by the host"))
    }

    /// The teacher's one click against a flood of hellos: everyone waiting
    /// goes, accepted members stay, and the lobby is sent once.
    private mutating func declineAllWaiting(_ fx: inout [Effect]) {
        let waiting = members.filter { $0.state == .pending }
        guard !waiting.isEmpty else { return }
        members.removeAll { $0.state == .pending }
        for m in waiting { sendAway(m, &fx) }
        broadcastLobby(&fx)
    }

    /// Joiners waiting with a connection, in all and from `source`.
    private func hasRoomToWait(from source: String?) -> Bool {
        let waiting = members.compactMap { $0.state == .pending ? $0.connection : nil }
        guard waiting.count < maxWaiting else { return false }
        guard let source else { return true }
        return waiting.filter { sources[$0] == source }.count < maxWaitingPerAddress
    }

    private mutating func decline(_ c: ConnectionID, _ reason: DeclineReason, _ fx: inout [Effect]) {
        forget(c)
        fx.append(.send(.declined(reason), to: [c]))
        fx.append(.close(c, reason: reason.description))
    }

    private mutating func connectionClosed(_ c: ConnectionID, leaving: Bool = false, _ fx: inout [Effect]) {
        guard let binding = connections[c] else { return }
        forget(c)
        guard let index = binding, let i = members.firstIndex(where: { $0.index == index }) else { return }
        members[i].connection = nil
        if members[i].state == .pending {
            // Nobody let it in: nothing of it is kept.
            members.remove(at: i)
        } else if leaving {
            // Said bye: gone for good, its place and picture with it (its ink
            // keeps its name). It may join again as someone new.
            fx.append(.send(.memberLeft(MemberLeft(member: index)), to: acceptedConnections()))
            fx.append(.event(.memberLeft(index)))
            members.remove(at: i)
        } else {
            // An accepted member may come back with its token; its strokes in
            // progress wait for it (or for the end of the session).
            fx.append(.send(.memberLeft(MemberLeft(member: index)), to: acceptedConnections()))
            fx.append(.event(.memberLeft(index)))
        }
        broadcastLobby(&fx)
    }

    // MARK: - Session-wide actions

    private mutating func start(now: WireTime, _ fx: inout [Effect]) {
        guard !isStarted, ended == nil else { return fx.append(.event(.refused("already started"))) }
        // The activity's rule; where it lets a lone host start, the UI asked first.
        guard activity.startRule.allowsStart(players: connectedDrawers) else {
            return fx.append(.event(.refused("at least \(activity.startRule.minimumPlayers) must be in to start")))
        }
        startedAt = now
        broadcastLobby(&fx)
        let start = Start(secondsLeft: secondsLeft(now: now))
        fx.append(.send(.start(start), to: acceptedConnections()))
        fx.append(.event(.started(secondsLeft: start.secondsLeft.map(Int.init))))
    }

    private mutating func localClear(now: WireTime, _ fx: inout [Effect]) {
        guard settings.clearAllowed else { return fx.append(.event(.refused("clearing is off in the settings"))) }
        guard canDrawLocally(&fx) else { return }
        guard board.hasRoomForMark(by: hostName) else { return fx.append(.event(.opRefused(.sketchFull, member: Self.hostIndex))) }
        let clear = Clear(stamp: nextHostStamp(), author: hostName, time: now)
        let op = board.clear(clear)
        fx.append(.send(.clear(clear), to: opReceivers()))
        fx.append(.event(.opApplied(op, sender: Self.hostIndex, isOwn: true)))
    }

    private mutating func end(_ reason: EndReason, now: WireTime, _ fx: inout [Effect]) {
        guard ended == nil else { return }
        ended = reason
        for (op, sender) in board.commitLive(endedAt: now) {
            fx.append(.event(.opApplied(op, sender: sender, isOwn: sender == Self.hostIndex)))
        }
        let all = connections.keys.sorted()
        fx.append(.send(.end(End(reason: reason, at: now)), to: all))
        for c in all { fx.append(.close(c, reason: "session ended")) }
        connections = [:]
        sources = [:]
        snapshotCursors = [:]
        for i in members.indices { members[i].connection = nil }
        fx.append(.event(.ended(reason)))
    }

    // MARK: - Ops

    private mutating func receive(_ message: SessionMessage, from c: ConnectionID, member index: MemberIndex,
                                  now: WireTime, _ fx: inout [Effect]) {
        switch message {
        case .ping(let n):
            return fx.append(.send(.pong(n), to: [c]))
        case .pong:
            return
        case .bye:
            fx.append(.close(c, reason: "left"))
            return connectionClosed(c, leaving: true, &fx)
        case .hello:
            fx.append(.close(c, reason: "second hello"))
            return connectionClosed(c, &fx)
        default:
            break
        }
        guard let stamp = message.stamp, let firstSeq = message.firstSeq else {
            // Host-only messages from a member: a confused or hostile peer.
            fx.append(.close(c, reason: "unexpected frame type \(message.typeByte) from a member"))
            return connectionClosed(c, &fx)
        }
        guard let m = members.first(where: { $0.index == index }), m.state == .accepted, m.role == .drawer,
              isStarted, ended == nil else { return }
        let last = lastSeq[index] ?? 0
        guard stamp.seq > last else { return }  // a resend after rejoin: seen already
        guard firstSeq == last + 1 else {
            // Ops are resent from the host's last seq on rejoin, so a gap means
            // the member is out of step; it rejoins and resends from there.
            fx.append(.close(c, reason: "op sequence gap (expected \(last + 1), got \(firstSeq))"))
            return connectionClosed(c, &fx)
        }
        lastSeq[index] = stamp.seq
        let mine = OpStamp(sender: index, seq: stamp.seq)
        // Refused ops spend their seq like ops without effect; the sender is
        // told, so its app can say why and forget them.
        func refuse(_ why: OpRefusalReason) {
            fx.append(.send(.opRefused(OpRefusal(stamp: mine, reason: why)), to: [c]))
            fx.append(.event(.opRefused(why, member: index)))
        }
        switch message {
        case .strokeBegin(var b):
            b.stamp = mine
            b.author = m.name
            b.time = now
            if let why = board.refusal(of: b) { return refuse(why) }
            applyBegin(b, own: false, &fx)
        case .strokeSegments(var s):
            s.stamp = mine
            if board.liveStroke(s.strokeID, of: index) != nil {
                if let why = board.refusal(of: s) { return refuse(why) }
                applySegments(s, own: false, &fx)
            }
        case .strokeEnd(var e):
            e.stamp = mine
            e.time = now
            if board.liveStroke(e.strokeID, of: index) != nil {
                applyEnd(e, own: false, &fx)
            }
        case .erase(var e):
            // The member's name, not what the frame claims, decides whose
            // stroke it is; a refused erase spends its seq and does nothing.
            guard settings.eraseRule.allows(erasing: e.strokeID, by: m.name, in: document) else { return }
            e.stamp = mine
            e.author = m.name
            e.time = now
            guard board.hasRoomForMark(by: e.author) else { return refuse(.sketchFull) }
            applyErase(e, own: false, &fx)
        default:
            // Clearing is the host's alone; the seq is spent, nothing happens.
            return
        }
    }

    private mutating func applyBegin(_ b: StrokeBegin, own: Bool, _ fx: inout [Effect]) {
        guard let stroke = board.begin(b) else { return }
        fx.append(.send(.strokeBegin(b), to: opReceivers()))
        fx.append(.event(.strokeBegan(stroke, isOwn: own)))
    }

    private mutating func applySegments(_ s: StrokeSegments, own: Bool, _ fx: inout [Effect]) {
        guard let first = board.extend(s) else { return }
        fx.append(.send(.strokeSegments(s), to: opReceivers()))
        fx.append(.event(.strokeExtended(id: s.strokeID, sender: s.stamp.sender, firstIndex: first,
                                         segments: s.segments.map(\.cubic), isOwn: own)))
    }

    private mutating func applyEnd(_ e: StrokeEnd, own: Bool, _ fx: inout [Effect]) {
        guard let op = board.end(e) else { return }
        fx.append(.send(.strokeEnd(e), to: opReceivers()))
        fx.append(.event(.opApplied(op, sender: e.stamp.sender, isOwn: own)))
    }

    private mutating func applyErase(_ e: Erase, own: Bool, _ fx: inout [Effect]) {
        guard let op = board.erase(e) else { return }
        fx.append(.send(.erase(e), to: opReceivers()))
        fx.append(.event(.opApplied(op, sender: e.stamp.sender, isOwn: own)))
    }

    // MARK: - Helpers

    /// The connection is nobody's any more (closed, replaced, sent away).
    private mutating func forget(_ c: ConnectionID) {
        connections[c] = nil
        sources[c] = nil
        reached[c] = nil
        snapshotCursors[c] = nil
    }

    private func canDrawLocally(_ fx: inout [Effect]) -> Bool {
        guard isStarted, ended == nil else {
            fx.append(.event(.refused(ended == nil ? "the session has not started" : "the session has ended")))
            return false
        }
        return true
    }

    private mutating func nextHostStamp() -> OpStamp {
        let seq = (lastSeq[Self.hostIndex] ?? 0) + 1
        lastSeq[Self.hostIndex] = seq
        return OpStamp(sender: Self.hostIndex, seq: seq)
    }

    private mutating func bind(_ c: ConnectionID, to i: Int) {
        members[i].connection = c
        connections[c] = .some(members[i].index)
    }

    /// Accepted drawers connected now, the host included: the players a start counts.
    public var connectedDrawers: Int { connectedDrawerIndices.count }

    /// Names are what authorship shows, so two "Anna"s become "Anna" and
    /// "Anna 2" (and the lobby marks both, see `LobbyMember.sharesName`).
    /// `name` has been cleaned already.
    private func uniqueName(_ name: String) -> String {
        let base = name.isEmpty ? "Guest" : name
        let taken = Set(members.map(\.name))
        if !taken.contains(base) { return base }
        // Room for " 256" within both the byte and the character limit.
        let cut = DisplayName.cleaned(base, maxBytes: SessionLimits.maxNameBytes - 4,
                                      maxScalars: SketchLimits.maxNameLength - 4)
        var n = 2
        while taken.contains(cut + " \(n)") { n += 1 }
        return cut + " \(n)"
    }

    /// Names that look the same to a child compare equal: case is ignored,
    /// and an empty name is the "Guest" it will be shown as.
    private static func nameKey(_ asked: String) -> String {
        (asked.isEmpty ? "Guest" : asked).lowercased()
    }

    /// The connections of accepted members (drawers and observers), sorted.
    public var acceptedMemberConnections: [ConnectionID] { acceptedConnections() }

    /// The accepted drawers connected now, host first, in seating (member
    /// index) order: who plays when an activity starts.
    public var connectedDrawerIndices: [MemberIndex] {
        members.filter { $0.role == .drawer && $0.state == .accepted
            && ($0.index == Self.hostIndex || $0.connection != nil) }.map(\.index).sorted()
    }

    private func acceptedConnections() -> [ConnectionID] {
        members.compactMap { $0.state == .accepted ? $0.connection : nil }.sorted()
    }

    /// Who gets ops as they happen: accepted members not in the middle of
    /// a snapshot (that snapshot's last piece will hold the op).
    private func opReceivers() -> [ConnectionID] {
        acceptedConnections().filter { snapshotCursors[$0] == nil }
    }

    private func helloedConnections(except: ConnectionID? = nil) -> [ConnectionID] {
        members.compactMap { $0.connection != nil && $0.connection != except ? $0.connection : nil }.sorted()
    }

    private mutating func broadcastLobby(_ fx: inout [Effect]) {
        let lobby = lobby
        fx.append(.send(.lobby(lobby), to: helloedConnections()))
        fx.append(.event(.lobbyChanged(lobby)))
    }

    private func sendAvatars(to c: ConnectionID, _ fx: inout [Effect]) {
        for m in members where m.state == .accepted && m.connection != c {
            if let png = m.avatar { fx.append(.send(.avatar(Avatar(member: m.index, png: png)), to: [c])) }
        }
    }

    private func secondsLeft(now: WireTime) -> UInt32? {
        guard let deadline else { return nil }
        return UInt32(max(0, (WireTime(deadline).milliseconds - now.milliseconds + 999) / 1000))
    }

    /// Start (with the time left), then the sketch as a stream: one piece
    /// of ops now, the next each time the transport says this connection's
    /// queue has drained (`snapshotDrained`), so a joiner of a big sketch
    /// costs the host about one piece of memory and is never "too slow" for
    /// it. Ops broadcast meanwhile skip the connection; the last piece goes
    /// out with the strokes in progress and each sender's last seq as they
    /// are at that moment, so the live tail continues exactly after it.
    private mutating func sendStartAndSnapshot(to c: ConnectionID, now: WireTime, _ fx: inout [Effect]) {
        fx.append(.send(.start(Start(secondsLeft: secondsLeft(now: now))), to: [c]))
        fx.append(.send(.snapshotBegin(SnapshotBegin(opCount: UInt32(clamping: document.ops.count))), to: [c]))
        snapshotCursors[c] = 0
        continueSnapshot(to: c, &fx)
    }

    private mutating func continueSnapshot(to c: ConnectionID, _ fx: inout [Effect]) {
        guard let from = snapshotCursors[c] else { return }
        let ops = document.ops
        var end = from
        var budget = 0
        while end < ops.count {
            let cost: Int
            if case .addStroke(let s) = ops[end] { cost = 600 + 30 * s.segments.count } else { cost = 600 }
            if budget + cost > SessionLimits.snapshotChunkBudget && end > from { break }
            budget += cost
            end += 1
        }
        if end > from { fx.append(.send(.snapshotOps(Array(ops[from..<end])), to: [c])) }
        guard end == ops.count else {
            snapshotCursors[c] = end
            return
        }
        snapshotCursors[c] = nil
        for stroke in live { fx.append(.send(.snapshotStroke(stroke), to: [c])) }
        let seqs = lastSeq.sorted { $0.key < $1.key }.map { OpStamp(sender: $0.key, seq: $0.value) }
        fx.append(.send(.snapshotEnd(SnapshotEnd(lastSeq: seqs)), to: [c]))
    }
}
