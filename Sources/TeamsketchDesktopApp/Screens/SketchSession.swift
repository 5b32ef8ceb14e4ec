import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// One Team Sketch on the LAN seen from this device: its lobby
/// (`LobbyController`, as for every activity), the drawing going to the
/// session (`SharedSketchLink`), the sketch kept on this device as it grows
/// (`SharedSketchKeeper`), and the canvas that shows it. Events arrive in
/// order on the main actor.
@MainActor
final class SketchSession: LobbySession {
    let room: LobbyController
    private weak var nav: (any Navigator)?
    private let lan: LanEnvironment
    private var drawing: SharedSketchLink?
    private(set) var role: PeerRole = .drawer
    /// Keeps the shared sketch on this device (a rejoin finds its copy).
    private let keeper: SharedSketchKeeper
    /// The sketch the session draws: the host's own, or what the host told
    /// this device when it let it in.
    private(set) var sketch: SessionSketch?
    private var deadline: Date?
    private var pendingLive: [LiveStroke] = []
    private var pendingDocument: SketchDocument?

    weak var canvas: CanvasScreen?
    let activityUI: any ActivityLobbyUI

    /// The saver of the stored sketch, once it is stored.
    var saver: SketchSaver? { keeper.saver }
    /// The name this device's strokes carry in the session, as the host
    /// lists it (a second "Anna" is "Anna 2").
    var nameInSession: String? { room.myIndex.flatMap { room.lobby?.member($0)?.name } }
    var sessionDeadline: Date? { deadline }

    init(nav: any Navigator, lan: LanEnvironment) {
        self.nav = nav
        self.lan = lan
        let ui = SketchLobbyUI()
        activityUI = ui
        room = LobbyController(wording: ui.wording, ownAvatar: { lan.ownAvatar },
                               withdraw: { lan.discovery.withdraw() })
        keeper = lan.keepSharedSketch { [weak nav] failure in nav?.reportSaveFailure(failure) }
    }

    private func eventSink() -> @Sendable (SessionEvent) -> Void {
        MainActorEvents.sink { [weak self] in self?.handle($0) }
    }

    // MARK: start

    func host(params: SessionParams, settings: SessionSettings, name: String) async throws {
        let sketch = SessionSketch.hosted(creator: lan.schoolAccount)
        let request = LanSessions.SketchHosting(seat: lan.seat(named: name), params: params, settings: settings, sketch: sketch,
                                                classWatchKey: lan.signIn()?.hostWatchKey)
        let (lobby, drawing) = try await lan.sessions.hostSketch(request, eventSink())
        self.drawing = drawing
        self.sketch = sketch
        await room.hosting(lobby)
    }

    func join(route: JoinRoute, name: String, role: PeerRole) async throws {
        self.role = role
        let (lobby, drawing) = try await lan.sessions.joinSketch(.init(seat: lan.seat(named: name), route: route, role: role), eventSink())
        self.drawing = drawing
        room.joined(lobby)
    }

    func clear() { drawing?.clear() }

    /// Ends the session for everyone (host) or leaves it (member).
    func finish() async {
        drawing = nil
        await room.finish()
    }

    // MARK: events

    private func handle(_ event: SessionEvent) {
        if let lobbyEvent = LobbyEvent(event) { room.handle(lobbyEvent) }
        switch event {
        case .lobbyChanged:
            nameMembers()
        case .accepted(_, _, let sketch):
            self.sketch = sketch
        case .started(let secondsLeft):
            deadline = secondsLeft.map { Date().addingTimeInterval(Double($0)) }
            guard let lobby = room.lobby, let sketch else { return }
            let meta = lobby.meta(sketch: sketch.id)
            keeper.ensureStored(meta, of: sketch, members: ownAccount)
            nameMembers()
            lan.openSketch(self, meta)
            if let doc = pendingDocument { canvas?.sessionReset(doc, live: pendingLive) }
            pendingDocument = nil
            pendingLive = []
        case .documentReset(let doc, let live):
            keeper.catchUp(with: doc, of: sketch, members: ownAccount)
            if let canvas { canvas.sessionReset(doc, live: live) } else {
                pendingDocument = doc
                pendingLive = live
            }
        case .strokeBegan(let live, let isOwn):
            if !isOwn { canvas?.canvas.remoteBegan(live) }
        case .strokeExtended(let id, _, let first, let segments, let isOwn):
            if !isOwn { canvas?.canvas.remoteExtended(id, firstIndex: first, segments: segments) }
        case .opApplied(let op, _, let isOwn):
            keeper.append(op)
            canvas?.canvas.sharedOpApplied(op, isOwn: isOwn)
        case .memberLeft(let index):
            if let name = room.lobby?.member(index)?.name {
                canvas?.showNotice(String(format: `_`("%@ left the session."), name))
            }
        case .ended(let reason):
            canvas?.sessionEnded(reason)
        case .connectionLost:
            canvas?.showNotice(`_`("The connection was lost. Trying again…"))
        case .opRefused(let reason, let member):
            canvas?.showNotice(text(for: reason, member: member))
        case .ownStrokeRefused(let id):
            canvas?.canvas.ownStrokeRefused(id)
        case .avatar, .declined, .connectionDropped, .refused:
            break
        }
    }

    /// Said on the canvas of whoever drew it, and on the host's: the host
    /// is told about a pupil's line left out, so the teacher knows why.
    private func text(for reason: OpRefusalReason, member: MemberIndex) -> String {
        // Only the host can start a new sketch for everyone.
        if case .sketchFull = reason {
            return room.isHost ? `_`("This sketch is full. Start a new one to draw more.") : `_`("This sketch is full. No more lines fit.")
        }
        if room.isHost, member != room.myIndex, let name = room.lobby?.member(member)?.name {
            return String(format: `_`("A line from %@ was left out."), name)
        }
        switch reason {
        case .tooManyOpenStrokes: return `_`("Too many lines at once. Lift the pen and try again.")
        default: return `_`("That line was left out: it did not fit on the sheet.")
        }
    }

    // MARK: keeping the sketch

    /// A member drawer names itself with the sketch, before any of its ops
    /// (its laptop may sync before the host's); the host names the others.
    private var ownAccount: [UUID] {
        room.isHost || role != .drawer ? [] : lan.schoolAccount.map { [$0] } ?? []
    }

    /// The host tells the school server who draws in the sketch once it is
    /// stored: every drawer it let in who has a school account.
    private func nameMembers() {
        guard room.isHost, keeper.saver != nil, let drawing else { return }
        Task { @MainActor [weak self] in
            let accounts = await drawing.memberAccounts()
            self?.keeper.name(accounts)
        }
    }
}

extension SketchSession: CanvasSessionLink {
    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point) {
        drawing?.beginStroke(id, color, width, start)
    }

    func addSegments(_ s: [CubicSegment], to id: UUID) { drawing?.addSegments(s, id) }
    func endStroke(_ id: UUID) { drawing?.endStroke(id) }
    func erase(_ id: UUID) { drawing?.erase(id) }
}
