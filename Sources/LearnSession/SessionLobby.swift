import Foundation
import LearnSketch

/// The sketch's parameters, fixed when the host opens the lobby and shown to
/// every joiner before the start.
public struct SessionParams: Hashable, Sendable {
    public var name: String
    public var guides: LineGuides
    /// 0 = no limit, at most 120.
    public var timeLimitMinutes: Int
    public var canvasWidth: Int
    public var canvasHeight: Int

    public init(name: String, guides: LineGuides = .none, timeLimitMinutes: Int = 0,
                canvasWidth: Int = Int(SketchMeta.defaultWidth), canvasHeight: Int = Int(SketchMeta.defaultHeight)) {
        self.name = SessionLimits.truncated(name)
        self.guides = guides
        self.timeLimitMinutes = min(max(timeLimitMinutes, SketchLimits.timeLimitMinutes.lowerBound),
                                    SketchLimits.timeLimitMinutes.upperBound)
        self.canvasWidth = min(max(canvasWidth, 1), 1 << 20)
        self.canvasHeight = min(max(canvasHeight, 1), 1 << 20)
    }
}

/// Classroom settings that change what members may do: clear is
/// host-only and off by default, the eraser on by default (optionally only
/// for one's own strokes), undo of one's own last strokes off by default.
public struct SessionSettings: Hashable, Sendable {
    public var clearAllowed: Bool
    public var eraserAllowed: Bool
    public var undoOwnAllowed: Bool
    public var eraserOwnStrokesOnly: Bool

    public init(clearAllowed: Bool = false, eraserAllowed: Bool = true, undoOwnAllowed: Bool = false,
                eraserOwnStrokesOnly: Bool = false) {
        self.clearAllowed = clearAllowed
        self.eraserAllowed = eraserAllowed
        self.undoOwnAllowed = undoOwnAllowed
        self.eraserOwnStrokesOnly = eraserOwnStrokesOnly
    }

    public var eraseRule: EraseRule {
        EraseRule(eraserAllowed: eraserAllowed, ownStrokesOnly: eraserOwnStrokesOnly, undoAllowed: undoOwnAllowed)
    }

    /// The settings as one byte on the wire (bits 1, 2, 4, 8); a reader
    /// ignores bits it does not know, so later settings can be added.
    public var wireFlags: UInt8 {
        (clearAllowed ? 1 : 0) | (eraserAllowed ? 2 : 0) | (undoOwnAllowed ? 4 : 0) | (eraserOwnStrokesOnly ? 8 : 0)
    }

    public init(wireFlags s: UInt8) {
        self.init(clearAllowed: s & 1 != 0, eraserAllowed: s & 2 != 0, undoOwnAllowed: s & 4 != 0,
                  eraserOwnStrokesOnly: s & 8 != 0)
    }
}

public struct LobbyMember: Hashable, Sendable {
    public var index: MemberIndex
    public var peerID: UUID
    public var name: String
    public var role: PeerRole
    public var state: MemberState
    public var connected: Bool
    public var hasAvatar: Bool
    /// Someone else in the lobby asked for the same name (one of them shows
    /// as "Anna 2"): the host is told, so a stranger cannot pass as a pupil
    /// unnoticed.
    public var sharesName: Bool

    public init(index: MemberIndex, peerID: UUID, name: String, role: PeerRole, state: MemberState,
                connected: Bool, hasAvatar: Bool, sharesName: Bool = false) {
        self.index = index; self.peerID = peerID; self.name = name; self.role = role
        self.state = state; self.connected = connected; self.hasAvatar = hasAvatar; self.sharesName = sharesName
    }
}

/// What the host tells everyone who said hello, after every change.
public struct Lobby: Hashable, Sendable {
    public var sessionID: UUID
    public var createdAt: WireTime
    public var params: SessionParams
    public var settings: SessionSettings
    public var hostPeerID: UUID
    public var members: [LobbyMember]
    public var started: Bool
    /// The activity's block: its kind and what it tells joiners, as bytes
    /// only the activity reads (`ActivityDefinition.lobbyInfo(of:)`).
    public var activityInfo: ActivityInfo
    /// What the session is for (as discovery announces it).
    public var activity: SessionActivity { activityInfo.kind }

    public init(sessionID: UUID, createdAt: WireTime, params: SessionParams, settings: SessionSettings,
                hostPeerID: UUID, members: [LobbyMember], started: Bool,
                activityInfo: ActivityInfo = ActivityInfo(kind: .sketch)) {
        self.sessionID = sessionID; self.createdAt = createdAt; self.params = params; self.settings = settings
        self.hostPeerID = hostPeerID; self.members = members; self.started = started; self.activityInfo = activityInfo
    }

    /// The sketch every member builds, under the id the host told those it
    /// accepted (`SessionSketch`), so the copies on all devices are one
    /// sketch when they sync.
    public func meta(sketch: UUID) -> SketchMeta {
        SketchMeta(id: sketch, name: params.name, guides: params.guides,
                   timeLimitMinutes: params.timeLimitMinutes, width: Double(params.canvasWidth),
                   height: Double(params.canvasHeight), createdAt: createdAt.date)
    }

    public func member(_ index: MemberIndex) -> LobbyMember? { members.first { $0.index == index } }

    /// Accepted drawers that are connected now (the host always is).
    public var connectedDrawers: Int {
        members.filter { $0.role == .drawer && $0.state == .accepted && $0.connected }.count
    }
}
