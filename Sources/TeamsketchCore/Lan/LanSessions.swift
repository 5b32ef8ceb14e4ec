import Foundation
import LearnModel

/// Opening LAN sessions from this device: hosting or joining a team
/// sketch or a team game, and the teacher's wall watching a group. Each
/// gives the lobby its `LobbyLink` and the activity its own link; the
/// session's events arrive through `onEvent`, in order, on the session's
/// thread. The live version (`LanSessions+Live`) runs the real host and
/// client on the network.
public struct LanSessions: Sendable {
    /// Who this device is in a session it opens or joins.
    public struct Seat: Sendable {
        public var name: String
        /// The picture this device's pupil drew, sent with the hello.
        public var avatar: [UInt8]?
        /// The school account this device's work belongs to.
        public var account: UUID?

        public init(name: String, avatar: [UInt8]?, account: UUID? = nil) {
            self.name = name
            self.avatar = avatar
            self.account = account
        }
    }

    public struct SketchHosting: Sendable {
        public var seat: Seat
        public var params: SessionParams
        public var settings: SessionSettings
        /// The sketch the session draws (its id, its creator).
        public var sketch: SessionSketch
        /// Lets the wall of this device's class watch without asking.
        public var classWatchKey: [UInt8]?

        public init(seat: Seat, params: SessionParams, settings: SessionSettings, sketch: SessionSketch,
                    classWatchKey: [UInt8]?) {
            self.seat = seat
            self.params = params
            self.settings = settings
            self.sketch = sketch
            self.classWatchKey = classWatchKey
        }
    }

    public struct GameHosting: Sendable {
        public var seat: Seat
        public var pool: WordPool
        /// The host's classroom choice of sounds, for every device.
        public var soundsOn: Bool
        /// Words the host's pupil already finished, left for last.
        public var previouslyFinished: Set<String>

        public init(seat: Seat, pool: WordPool, soundsOn: Bool, previouslyFinished: Set<String>) {
            self.seat = seat
            self.pool = pool
            self.soundsOn = soundsOn
            self.previouslyFinished = previouslyFinished
        }
    }

    public struct Joining: Sendable {
        public var seat: Seat
        public var route: JoinRoute
        public var role: PeerRole

        public init(seat: Seat, route: JoinRoute, role: PeerRole) {
            self.seat = seat
            self.route = route
            self.role = role
        }
    }

    public typealias Sketch = (lobby: LobbyLink, drawing: SharedSketchLink)
    public typealias Game = (lobby: LobbyLink, moves: WordPostMoves)

    public var hostSketch: @Sendable (SketchHosting, _ onEvent: @escaping @Sendable (SessionEvent) -> Void) async throws -> Sketch
    public var joinSketch: @Sendable (Joining, _ onEvent: @escaping @Sendable (SessionEvent) -> Void) async throws -> Sketch
    public var hostGame: @Sendable (GameHosting, _ onEvent: @escaping @Sendable (WordPostEvent) -> Void) async throws -> Game
    public var joinGame: @Sendable (Joining, _ onEvent: @escaping @Sendable (WordPostEvent) -> Void) async throws -> Game
    /// The teacher's wall joins a group's sketch as a watcher; `keys` (the
    /// teacher's classes') let a group of those classes take it in without
    /// asking. Gives back how to leave.
    public var watch: @Sendable (_ group: ClassWall.Group, _ watcher: String, _ keys: [ClassTag: [UInt8]],
                                 _ onEvent: @escaping @Sendable (SessionEvent) -> Void) async throws -> LobbyLink

    public init(hostSketch: @escaping @Sendable (SketchHosting, @escaping @Sendable (SessionEvent) -> Void) async throws -> Sketch,
                joinSketch: @escaping @Sendable (Joining, @escaping @Sendable (SessionEvent) -> Void) async throws -> Sketch,
                hostGame: @escaping @Sendable (GameHosting, @escaping @Sendable (WordPostEvent) -> Void) async throws -> Game,
                joinGame: @escaping @Sendable (Joining, @escaping @Sendable (WordPostEvent) -> Void) async throws -> Game,
                watch: @escaping @Sendable (ClassWall.Group, String, [ClassTag: [UInt8]],
                                            @escaping @Sendable (SessionEvent) -> Void) async throws -> LobbyLink) {
        self.hostSketch = hostSketch
        self.joinSketch = joinSketch
        self.hostGame = hostGame
        self.joinGame = joinGame
        self.watch = watch
    }
}
