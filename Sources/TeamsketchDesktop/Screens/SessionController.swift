import CGtk
import Foundation
import LearnModel
import LearnNet
import TeamsketchCore

/// One LAN session seen from this device: the host service or the client,
/// its events in order on the main actor, and the screens that show it
/// (lobby, then the shared canvas). Every op the session applies is stored
/// locally at once, so each device ends with the whole sketch, all authors.
@MainActor
final class SessionController {
    enum Link {
        case host(SessionHost)
        case member(SessionClient)
    }

    private(set) var link: Link?
    var relayOffer: Task<Void, Never>?
    private(set) var lobby: Lobby?
    private(set) var myIndex: MemberIndex?
    private(set) var role: PeerRole = .drawer
    private(set) var ended: EndReason?
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    /// Saves the shared sketch on this device; made when it starts (or
    /// with the first snapshot).
    private(set) var saver: SketchSaver?
    /// The sketch the session draws: the host's own, or what the host told
    /// this device when it let it in.
    private(set) var sketch: SessionSketch?
    /// Accounts this device has named to the school server as drawing in
    /// the sketch (the host names everyone it let in, a member itself).
    private var namedMembers: Set<UUID> = []
    private var deadline: Date?
    private var pendingLive: [LiveStroke] = []
    private var pendingDocument: SketchDocument?

    var onLobby: ((Lobby) -> Void)?
    var onStatus: ((String) -> Void)?
    weak var canvas: CanvasScreen?

    var isHost: Bool { if case .host = link { true } else { false } }
    /// Members' drawn pictures, as they arrive (this device's own too).
    private var avatars: [MemberIndex: [UInt8]] = [:]

    func avatar(of m: MemberIndex) -> [UInt8]? {
        avatars[m] ?? (m == myIndex ? lan.ownAvatar : nil)
    }

    /// The name this device's strokes carry in the session, as the host
    /// lists it (a second "Anna" is "Anna 2").
    var nameInSession: String? { myIndex.flatMap { lobby?.member($0)?.name } }

    init(nav: any Navigator, lan: LanEnvironment) {
        self.nav = nav
        self.lan = lan
    }

    /// Events arrive on NIO threads; an AsyncStream keeps their order on the way
    /// to the main actor.
    private func eventSink() -> @Sendable (SessionEvent) -> Void {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        Task { @MainActor [weak self] in
            for await event in stream { self?.handle(event) }
        }
        return { continuation.yield($0) }
    }

    // MARK: start

    func host(params: SessionParams, settings: SessionSettings, name: String) async throws {
        var config = SessionHost.Configuration(name: name, params: params)
        config.sketch = SessionSketch.hosted(creator: lan.schoolAccount)
        config.settings = settings
        config.avatarPNG = lan.ownAvatar
        config.classWatchKey = lan.signIn()?.hostWatchKey
        let onEvent = eventSink()
        let host = try await PortSelection.firstFree { [config] port in
            var c = config
            c.port = port
            return try await SessionHost.start(c, onEvent: onEvent)
        }
        link = .host(host)
        sketch = host.sketch
        myIndex = 0
        lobby = await host.lobby()
        if let lobby { onLobby?(lobby) }
    }

    func join(route: JoinRoute, name: String, role: PeerRole) async throws {
        self.role = role
        var config = SessionClient.Configuration(route: route, name: name, role: role)
        config.avatarPNG = lan.ownAvatar
        config.accountID = lan.schoolAccount
        let client = try await SessionClient.connect(config, onEvent: eventSink())
        link = .member(client)
    }

    // MARK: host actions

    func accept(_ m: MemberIndex) { if case .host(let h) = link { h.accept(m) } }
    func decline(_ m: MemberIndex) { if case .host(let h) = link { h.decline(m) } }
    func declineAllWaiting() { if case .host(let h) = link { h.declineAllWaiting() } }
    func start() { if case .host(let h) = link { h.start() } }
    func clear() { if case .host(let h) = link { h.clear() } }

    /// Ends the session for everyone (host) or leaves it (member).
    func finish() async {
        if isHost { lan.discovery.withdraw() }
        relayOffer?.cancel()
        relayOffer = nil
        switch link {
        case .host(let h): await h.end(.hostEnded); await h.shutdown()
        case .member(let c): await c.leave()
        case nil: break
        }
        link = nil
    }

    // MARK: drawing from this device

    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point) {
        switch link {
        case .host(let h): h.beginStroke(id: id, color: color, width: width, start: start)
        case .member(let c): c.beginStroke(id: id, color: color, width: width, start: start)
        case nil: break
        }
    }

    func addSegments(_ s: [CubicSegment], to id: UUID) {
        switch link {
        case .host(let h): h.addSegments(s, to: id)
        case .member(let c): c.addSegments(s, to: id)
        case nil: break
        }
    }

    func endStroke(_ id: UUID) {
        switch link {
        case .host(let h): h.endStroke(id)
        case .member(let c): c.endStroke(id)
        case nil: break
        }
    }

    func erase(_ id: UUID) {
        switch link {
        case .host(let h): h.erase(id)
        case .member(let c): c.erase(id)
        case nil: break
        }
    }

    // MARK: events

    private func handle(_ event: SessionEvent) {
        switch event {
        case .lobbyChanged(let l):
            lobby = l
            // Who left the lobby for good (declined, gave up waiting) takes
            // their picture along: a flood of strangers' hellos must not
            // pile up 64 KiB each here.
            avatars = avatars.filter { l.member($0.key) != nil }
            onLobby?(l)
            nameMembers()
        case .avatar(let member, let png):
            // Shown only if it passes the checks (it came from the network).
            guard AvatarPNG.isAcceptable(png) else { break }
            avatars[member] = png
            if let lobby { onLobby?(lobby) }
        case .accepted(let index, _, let sketch):
            myIndex = index
            self.sketch = sketch
            onStatus?(`_`("You are in! Waiting for the host to start…"))
        case .declined(let reason):
            ended = .hostEnded
            onStatus?(activityUI.wording.text(for: reason))
        case .started(let secondsLeft):
            deadline = secondsLeft.map { Date().addingTimeInterval(Double($0)) }
            guard let lobby, let sketch else { return }
            let meta = lobby.meta(sketch: sketch.id)
            ensureStored(meta)
            nameMembers()
            lan.openSketch(self, meta)
            if let doc = pendingDocument { canvas?.sessionReset(doc, live: pendingLive) }
            pendingDocument = nil
            pendingLive = []
        case .documentReset(let doc, let live):
            persist(doc)
            if let canvas { canvas.sessionReset(doc, live: live) } else {
                pendingDocument = doc
                pendingLive = live
            }
        case .strokeBegan(let live, let isOwn):
            if !isOwn { canvas?.canvas.remoteBegan(live) }
        case .strokeExtended(let id, _, let first, let segments, let isOwn):
            if !isOwn { canvas?.canvas.remoteExtended(id, firstIndex: first, segments: segments) }
        case .opApplied(let op, _, let isOwn):
            persist(op)
            canvas?.canvas.sharedOpApplied(op, isOwn: isOwn)
        case .memberLeft(let index):
            if let name = lobby?.member(index)?.name {
                canvas?.showNotice(String(format: `_`("%@ left the session."), name))
            }
        case .ended(let reason):
            ended = reason
            if isHost { lan.discovery.withdraw() }
            canvas?.sessionEnded(reason)
            onStatus?(activityUI.wording.text(for: reason))
        case .connectionLost:
            canvas?.showNotice(`_`("The connection was lost. Trying again…"))
        case .opRefused(let reason, let member):
            canvas?.showNotice(text(for: reason, member: member))
        case .ownStrokeRefused(let id):
            canvas?.canvas.ownStrokeRefused(id)
        case .connectionDropped, .refused:
            break
        }
    }

    var sessionDeadline: Date? { deadline }

    /// Said on the canvas of whoever drew it, and on the host's: the host
    /// is told about a pupil's line left out, so the teacher knows why.
    private func text(for reason: OpRefusalReason, member: MemberIndex) -> String {
        // Only the host can start a new sketch for everyone.
        if case .sketchFull = reason {
            return isHost ? `_`("This sketch is full. Start a new one to draw more.") : `_`("This sketch is full. No more lines fit.")
        }
        if isHost, member != myIndex, let name = lobby?.member(member)?.name {
            return String(format: `_`("A line from %@ was left out."), name)
        }
        switch reason {
        case .tooManyOpenStrokes: return `_`("Too many lines at once. Lift the pen and try again.")
        default: return `_`("That line was left out: it did not fit on the sheet.")
        }
    }

    // MARK: persistence

    // A rejoin is told the same sketch id, so a device that rejoins finds
    // its earlier copy; the saver counts what it holds and appends the rest.

    private func ensureStored(_ meta: SketchMeta) {
        guard saver == nil, let store = lan.store, let sketch, meta.id == sketch.id else { return }
        // A member names itself with the sketch, before any of its ops.
        let me = isHost || role != .drawer ? [] : lan.schoolAccount.map { [$0] } ?? []
        let saver = SketchSaver(store: store, sketch: meta, origin: .team(creator: sketch.creator, nonce: sketch.nonce),
                                members: me)
        namedMembers.formUnion(me)
        self.saver = saver
        report(saver.ensureStored())
    }

    /// The host tells the school server who draws in the sketch once it is
    /// stored: every drawer it let in who has a school account. (A member
    /// names itself when it stores the sketch: its laptop may sync first.)
    private func nameMembers() {
        guard let saver, case .host(let host) = link else { return }
        Task { @MainActor [weak self] in
            let accounts = await host.memberAccounts()
            self?.name(accounts, in: saver)
        }
    }

    private func name(_ accounts: [UUID], in saver: SketchSaver) {
        let new = accounts.filter { !namedMembers.contains($0) }
        guard !new.isEmpty else { return }
        if let failure = saver.addMembers(new) { return report(failure) }
        namedMembers.formUnion(new)
    }

    private func persist(_ op: SketchOp) {
        report(saver?.append(op))
    }

    /// A snapshot is the host's log, in the same order as what is stored.
    private func persist(_ doc: SketchDocument) {
        ensureStored(doc.meta)
        guard let pending = saver?.catchUp(with: doc) else { return }
        Task { [weak self] in self?.report(await pending.value) }
    }

    private func report(_ failure: SketchSaveError?) {
        if let failure { nav?.reportSaveFailure(failure) }
    }
}
