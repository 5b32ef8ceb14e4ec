import Foundation
import LearnModel
import NIOCore
import NIOPosix

/// Joins a Buchstaben Post session: a `SessionClient` (hello, lobby,
/// accept, rejoin with the token) whose word-post frames build a copy of the
/// host's game (`WordPostReplica`), reported as `WordPostEvent.gameChanged`.
/// Moves go to the host as intents; the screen shows what the host sends
/// back, never a guess of its own.
public final class WordPostClient: Sendable {
    public struct Configuration: Sendable {
        /// Host, port, name, role, rejoin window, … as for a sketch.
        public var session: SessionClient.Configuration

        public init(host: String, port: Int, name: String, role: PeerRole = .drawer) {
            session = SessionClient.Configuration(host: host, port: port, name: name, role: role)
        }
    }

    /// What the loop learned so far; read from any thread.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var _index: MemberIndex?
        private var replica = WordPostReplica()
        private var _receivedBytes = 0
        /// Frames refused since the game last went on.
        private var failuresInARow = 0
        private var _giveUp: (@Sendable () -> Void)?
        var index: MemberIndex? { lock.withLock { _index } }
        var game: WordPostGame? { lock.withLock { replica.game } }
        var receivedBytes: Int { lock.withLock { _receivedBytes } }
        func setIndex(_ i: MemberIndex) { lock.withLock { _index = i } }

        /// Applies one frame from the host to this device's copy of the game.
        func receive(_ message: ActivityMessage) throws(ActivityPayloadError)
            -> (game: WordPostGame, effects: [WordPostEffect])? {
            lock.lock()
            defer { lock.unlock() }
            _receivedBytes += message.payload.count + 6
            do throws(ActivityPayloadError) {
                let decoded = try WordPostActivity.decode(message)
                let shown = try replica.receive(decoded, me: _index)
                // The game went on after the last rejoin: the trouble is over.
                if case .moved = decoded { failuresInARow = 0 }
                return shown
            } catch {
                failuresInARow += 1
                throw error
            }
        }

        /// Whether rejoining has failed often enough to stop.
        var shouldGiveUp: Bool { lock.withLock { failuresInARow >= WordPostClient.maxUnreadableInARow } }
        func setGiveUp(_ f: @escaping @Sendable () -> Void) { lock.withLock { _giveUp = f } }
        func giveUp() { lock.withLock { _giveUp }?() }
    }

    /// Unreadable frames in a row (each one closes the connection and
    /// rejoins) after which the member leaves: a host whose game cannot be
    /// read must not keep it reconnecting every 50 ms.
    static let maxUnreadableInARow = 3

    public let session: SessionClient
    private let box: Box

    private init(session: SessionClient, box: Box) {
        self.session = session
        self.box = box
    }

    /// Connects and says hello. Throws only if the first connection fails;
    /// whether the host accepts arrives as an event.
    public static func connect(_ config: Configuration,
                               group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                               onEvent: @escaping @Sendable (WordPostEvent) -> Void = { _ in }) async throws(SessionClientError) -> WordPostClient {
        let box = Box()
        let client = try await SessionClient.connect(config.session, group: group, onActivityMessage: { message throws(ActivityPayloadError) in
            // A frame out of order or beyond the limits closes the connection;
            // rejoining brings a fresh snapshot, but only a few times.
            do throws(ActivityPayloadError) {
                if let shown = try box.receive(message) { onEvent(.gameChanged(shown.game, effects: shown.effects)) }
            } catch {
                if box.shouldGiveUp {
                    onEvent(.gaveUp(reason: error.reason))
                    box.giveUp()
                    throw ActivityPayloadError(error.reason, stopsRejoining: true)
                }
                throw error
            }
        }, onEvent: { event in
            switch event {
            case .lobbyChanged(let l): onEvent(.lobbyChanged(l))
            case .avatar(let m, let png): onEvent(.avatar(member: m, png: png))
            case .accepted(let index, _, _):
                box.setIndex(index)
                onEvent(.accepted(index: index))
            case .declined(let r): onEvent(.declined(r))
            case .memberLeft(let m): onEvent(.memberLeft(m))
            case .ended(let r): onEvent(.ended(r))
            case .connectionLost(let why): onEvent(.connectionLost(reason: why))
            case .connectionDropped(let m, let why): onEvent(.connectionDropped(member: m, reason: why))
            case .refused(let why): onEvent(.refused(why))
            default: break  // sketch events (start, empty snapshot) mean nothing here
            }
        })
        box.setGiveUp { Task { await client.leave() } }
        return WordPostClient(session: client, box: box)
    }

    /// This device's member index (= its PlayerID) once accepted.
    public var index: MemberIndex? { box.index }
    /// This device's copy of the host's game.
    public var game: WordPostGame? { box.game }
    /// Bytes of word-post frames received so far (tests: what a change costs).
    var receivedActivityBytesForTesting: Int { box.receivedBytes }

    /// Drop a tile from this player's hand onto a slot of its word.
    public func place(letter: LetterID, slot: Int) {
        guard let me = box.index else { return }
        session.sendActivity(WordPostActivity.encode(.intent(.place(letter: letter, by: me, slot: slot))))
    }

    /// Hand a tile to a teammate.
    public func send(letter: LetterID, to player: PlayerID) {
        guard let me = box.index else { return }
        session.sendActivity(WordPostActivity.encode(.intent(.send(letter: letter, from: me, to: player))))
    }

    /// Leaves on purpose: the host hands this player's letters on at once.
    public func leave() async { await session.leave() }

    /// Any intent, whoever it names (forgery tests).
    func sendIntentForTesting(_ intent: WordPostIntent) { session.sendActivity(WordPostActivity.encode(.intent(intent))) }
}
