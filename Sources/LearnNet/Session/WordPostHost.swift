import Foundation
import LearnModel
import NIOCore
import NIOPosix

/// Hosts Buchstaben Post on the LAN (docs/PROTOCOL.md "Buchstaben Post"):
/// the same lobby, discovery and framing as a sketch session, with the
/// authoritative `WordPostGame` on the host. Members' moves arrive as
/// intents, are checked against the connection they came on, applied with
/// the host's clock and sent on as small changes.
public final class WordPostHost: Sendable {
    public struct Configuration: Sendable {
        /// Name, port, acceptAll, … as for a sketch; `wordPost` is set from the pool.
        public var session: SessionHost.Configuration
        public var pool: WordPool
        public var soundsOn = true
        /// Words this group finished in earlier games (drawn less often).
        public var previouslyFinished: Set<String> = []
        /// nil: a random seed per game.
        public var seed: UInt64?
        /// How long a dropped player may take to rejoin before their letters
        /// go to the others. A player who leaves with `bye` goes at once.
        public var rejoinWindow: Duration = .seconds(20)
        /// After everyone finished a round the next one is dealt after this
        /// pause (time for the reward); nil: only when the host says so.
        public var roundPause: Duration? = .seconds(4)
        /// Moves a member may make at once, and on average per second; more
        /// are dropped. A child moves a tile or two a second.
        public var moveBurst = 20
        public var movesPerSecond = 10.0

        public init(name: String, pool: WordPool) {
            session = SessionHost.Configuration(name: name, params: SessionParams(name: pool.name))
            self.pool = pool
        }
    }

    public let session: SessionHost
    private let core: WordPostHostCore
    public var port: Int { session.port }

    private init(session: SessionHost, core: WordPostHostCore) {
        self.session = session
        self.core = core
    }

    /// Opens the lobby. Throws a `WordPoolLimitProblem` for a pool too big to
    /// play together (before anything is opened), or if the port cannot be bound.
    public static func start(_ config: Configuration,
                             group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             onEvent: @escaping @Sendable (WordPostEvent) -> Void = { _ in }) async throws -> WordPostHost {
        let sessionConfig = config.session
        let core = try WordPostHostCore(config: config, log: sessionConfig.log, onEvent: onEvent)
        let host = try await SessionHost.start(sessionConfig, group: group, activity: core, onEvent: { event in
            switch event {
            case .lobbyChanged(let l): onEvent(.lobbyChanged(l))
            case .avatar(let m, let png): onEvent(.avatar(member: m, png: png))
            case .memberLeft(let m): onEvent(.memberLeft(m))
            case .ended(let r): onEvent(.ended(r))
            case .connectionDropped(let m, let why): onEvent(.connectionDropped(member: m, reason: why))
            case .refused(let why): onEvent(.refused(why))
            default: break  // sketch events (start, empty snapshot) mean nothing here
            }
        })
        return WordPostHost(session: host, core: core)
    }

    // MARK: - Lobby

    public func accept(_ member: MemberIndex) { session.accept(member) }
    public func decline(_ member: MemberIndex) { session.decline(member) }
    /// Everyone waiting, in one lobby change (a flood of strangers).
    public func declineAllWaiting() { session.declineAllWaiting() }
    public func setAcceptAll(_ on: Bool) { session.setAcceptAll(on) }

    /// Deals round 1 to the accepted, connected drawers in seating (member
    /// index) order, the host first. A lone host may start (ask first).
    public func startGame() { session.start() }

    // MARK: - The host's own moves (the same path as a member's)

    public func place(letter: LetterID, slot: Int) {
        intent(.place(letter: letter, by: HostSession.hostIndex, slot: slot))
    }

    public func send(letter: LetterID, to player: PlayerID) {
        intent(.send(letter: letter, from: HostSession.hostIndex, to: player))
    }

    private func intent(_ i: WordPostIntent) {
        let core = core
        session.withActivityContext { host in core.apply(i, from: HostSession.hostIndex, on: nil, host: host) }
    }

    /// Deals the next round now (only after everyone finished).
    public func nextRound() {
        let core = core
        session.withActivityContext { host in core.nextRound(host: host) }
    }

    /// Ends the game and the session for everyone; the last state goes out first.
    public func endGame() {
        let core = core
        session.withActivityContext { host in core.endGame(host: host) }
    }

    // MARK: - State

    public func game() async -> WordPostGame? {
        let core = core
        return await session.read { _ in core.game }
    }

    public func lobby() async -> Lobby { await session.lobby() }
    /// Intents refused because they named another player (diagnostics, tests).
    public func forgedIntentCount() async -> Int {
        let core = core
        return await session.read { _ in core.forgedIntents }
    }

    /// Moves dropped because their member moved too fast (diagnostics, tests).
    public func throttledIntentCount() async -> Int {
        let core = core
        return await session.read { _ in core.throttledIntents }
    }

    /// Stops listening (a game still going ends with `hostLeft`).
    public func shutdown() async { await session.shutdown() }
}

/// The game on the host, confined to the session's loop (HostCore calls it
/// there, and WordPostHost hops there; each entry checks).
///
/// What goes out: a snapshot (the pool once, then the actions so far) to
/// everyone at the start and to each late joiner or rejoiner; afterwards each
/// change as its few actions. A refused move is answered to its mover only.
final class WordPostHostCore: HostActivity, @unchecked Sendable {
    private let config: WordPostHost.Configuration
    private let log: SessionLog
    private let onEvent: @Sendable (WordPostEvent) -> Void
    private let snapshot: WordPostSnapshot
    private(set) var game: WordPostGame?
    /// Every action that changed the game, in order: what a snapshot replays.
    private var actions: [WordPostAction] = []
    private var seq: UInt64 = 0
    /// Wrong drops answered to the dropper alone, not yet told to the others.
    private var unsentWrongDrops: [PlayerID: Int] = [:]
    private var buckets: [MemberIndex: TokenBucket] = [:]
    /// Members whose last move was dropped for going too fast (logged once per flood).
    private var flooding: Set<MemberIndex> = []
    private(set) var forgedIntents = 0
    private(set) var throttledIntents = 0
    /// Members who said bye: their letters go at once, no rejoin window.
    private var leaving: Set<MemberIndex> = []
    private var leaveTimers: [MemberIndex: Scheduled<Void>] = [:]
    private var roundTimer: Scheduled<Void>?

    let declaration: ActivityDeclaration

    init(config: WordPostHost.Configuration, log: SessionLog,
         onEvent: @escaping @Sendable (WordPostEvent) -> Void) throws(WordPoolLimitProblem) {
        self.config = config
        self.log = log
        self.onEvent = onEvent
        snapshot = try WordPostSnapshot(pool: config.pool, finishedBefore: config.previouslyFinished)
        declaration = WordPostActivity.declaration(WordPostLobbyInfo(pool: config.pool, soundsOn: config.soundsOn))
    }

    /// The host's clock in whole milliseconds, as the actions go out, so
    /// every copy of the game holds the same times.
    private func now() -> Date { WireTime(Date()).date }

    // MARK: HostActivity

    func memberSaidBye(_ member: MemberIndex, host: HostActivityContext) {
        host.eventLoop.preconditionInEventLoop()
        leaving.insert(member)
    }

    func received(_ message: ActivityMessage, from member: MemberIndex, on connection: ConnectionID,
                  host: HostActivityContext) throws(ActivityPayloadError) {
        switch try WordPostActivity.decode(message) {
        case .intent(let intent):
            apply(intent, from: member, on: connection, host: host)
        case .gameBegin, .poolItems, .actions, .moved, .refused:
            throw ActivityPayloadError("a host-only word-post frame from a member")
        }
    }

    func performed(_ effects: [HostSession.Effect], host: HostActivityContext) {
        host.eventLoop.preconditionInEventLoop()
        for effect in effects {
            switch effect {
            case .event(.started(_)):
                startGame(host: host)
            case .send(.accepted(_), let targets):
                // A late joiner or a rejoiner: the whole game, after the accept.
                if game != nil { sendSnapshot(to: targets, host: host) }
            case .event(.memberLeft(let member)):
                buckets[member] = nil
                flooding.remove(member)
                memberLeft(member, host: host)
            case .event(.ended(_)):
                roundTimer?.cancel()
                for t in leaveTimers.values { t.cancel() }
                leaveTimers = [:]
            default:
                break
            }
        }
    }

    // MARK: Moves

    /// A move from `member` (the connection's, never the message's): applied
    /// only if it names that member as the player, and only as fast as a
    /// child can move tiles. `connection` is nil for the host's own moves.
    func apply(_ intent: WordPostIntent, from member: MemberIndex, on connection: ConnectionID?,
               host: HostActivityContext) {
        host.eventLoop.preconditionInEventLoop()
        guard let m = host.session.members.first(where: { $0.index == member }),
              m.state == .accepted, m.role == .drawer else { return }
        // The rate first: a flood of forged moves must not become a flood of log lines.
        if connection != nil, !takeToken(member) { return }
        guard intent.player == member else {
            forgedIntents += 1
            log.write("ignoring a word-post move by member \(member) claiming player \(intent.player)")
            return
        }
        guard var next = game, host.session.ended == nil else { return }
        let action = intent.action(at: now())
        let effects = next.apply(action)
        guard effects.contains(where: { if case .rejected = $0 { false } else { true } }) else {
            // Refused (a wrong letter, a filled slot, a stale tile, not now):
            // only the mover hears of it. A wrong letter still counts, and
            // the others learn the count with the next change.
            if next.stats[member]?.wrongPlacements != game?.stats[member]?.wrongPlacements {
                game = next
                unsentWrongDrops[member, default: 0] += 1
            }
            refuse(intent, connection: connection, host: host)
            return
        }
        commit(action, game: next, effects: effects, host: host)
    }

    /// A token from the member's bucket; without one the move is dropped
    /// unanswered, so a flood costs the host little and the others nothing.
    private func takeToken(_ member: MemberIndex) -> Bool {
        var bucket = buckets[member] ?? TokenBucket(capacity: config.moveBurst, perSecond: config.movesPerSecond)
        let ok = bucket.take(atNanoseconds: NIODeadline.now().uptimeNanoseconds)
        buckets[member] = bucket
        if ok {
            flooding.remove(member)
        } else {
            throttledIntents += 1
            if flooding.insert(member).inserted { log.write("member \(member) moves too fast; dropping moves") }
        }
        return ok
    }

    private func refuse(_ intent: WordPostIntent, connection: ConnectionID?, host: HostActivityContext) {
        if let connection { return host.send(WordPostActivity.encode(.refused(intent)), to: [connection]) }
        // The host's own move: its tile springs back, if it still holds it.
        guard let game else { return }
        let (letter, slot) = switch intent {
        case let .place(letter, _, slot): (letter, slot)
        case let .send(letter, _, _): (letter, -1)
        }
        guard game.hands[intent.player]?.contains(where: { $0.id == letter }) == true else { return }
        onEvent(.gameChanged(game, effects: [.rejected(letter: letter, player: intent.player, slot: slot)]))
    }

    private func startGame(host: HostActivityContext) {
        guard game == nil else { return }
        let players = host.session.connectedDrawerIndices
        game = WordPostGame(pool: snapshot.pool, previouslyFinished: snapshot.finishedBefore)
        // Everyone gets the pool first; the start is then the first change.
        sendSnapshot(to: host.session.acceptedMemberConnections, host: host)
        run(.start(players: players, seed: config.seed ?? UInt64.random(in: .min ... .max), at: now()), host: host)
    }

    func nextRound(host: HostActivityContext) { run(.nextRound(at: now()), host: host) }

    func endGame(host: HostActivityContext) {
        if game != nil { run(.endGame(at: now()), host: host) }
        host.endSession(.hostEnded)
    }

    private func memberLeft(_ member: MemberIndex, host: HostActivityContext) {
        guard let game, game.players.contains(member), !game.isEnded else { return }
        leaveTimers.removeValue(forKey: member)?.cancel()
        if leaving.remove(member) != nil { return run(.playerLeft(member, at: now()), host: host) }
        leaveTimers[member] = host.eventLoop.scheduleTask(in: config.rejoinWindow.timeAmount) { [unowned self] in
            self.leaveTimers[member] = nil
            // Back in time (with its token): it plays on.
            guard host.session.members.first(where: { $0.index == member })?.connection == nil else { return }
            self.run(.playerLeft(member, at: self.now()), host: host)
        }
    }

    /// Applies one of the host's own actions (start, next round, someone left, end).
    private func run(_ action: WordPostAction, host: HostActivityContext) {
        guard var next = game, host.session.ended == nil else { return }
        let effects = next.apply(action)
        guard !effects.isEmpty else { return }
        commit(action, game: next, effects: effects, host: host)
    }

    /// Makes `next` the game, sends the change to everyone and schedules what
    /// follows (the next round, the end).
    private func commit(_ action: WordPostAction, game next: WordPostGame, effects: [WordPostEffect],
                        host: HostActivityContext) {
        game = next
        broadcast(takeUnsentWrongDrops() + [action], host: host)
        onEvent(.gameChanged(next, effects: effects))
        if actions.count >= WordPostWireLimits.maxLogActions - WordPostWireLimits.maxMoveActions, !next.isEnded {
            // A rejoiner could no longer be given the game: end it rather than break it.
            log.write("word-post game reached \(actions.count) actions; ending it")
            return endGame(host: host)
        }
        switch next.phase {
        case .roundFinished(let round):
            guard let pause = config.roundPause else { break }
            roundTimer?.cancel()
            roundTimer = host.eventLoop.scheduleTask(in: pause.timeAmount) { [unowned self] in
                guard self.game?.phase == .roundFinished(round: round) else { return }
                self.run(.nextRound(at: self.now()), host: host)
            }
        case .ended:
            // The game is over for everyone: so is the session.
            host.endSession(.hostEnded)
        default:
            break
        }
    }

    /// The wrong-drop counters the others have not heard of, as actions;
    /// the host's own game already holds them.
    private func takeUnsentWrongDrops() -> [WordPostAction] {
        defer { unsentWrongDrops = [:] }
        return unsentWrongDrops.sorted { $0.key < $1.key }.map { .wrongPlacements(player: $0.key, count: $0.value) }
    }

    /// `except`: connections that get the change inside their snapshot
    /// instead (a joiner has no game to apply a move to yet).
    private func broadcast(_ change: [WordPostAction], host: HostActivityContext, except: [ConnectionID] = []) {
        guard !change.isEmpty else { return }
        seq += 1
        actions += change
        let to = host.session.acceptedMemberConnections.filter { !except.contains($0) }
        host.send(WordPostActivity.encode(.moved(WordPostMove(seq: seq, actions: change))), to: to)
    }

    /// The pool and the actions so far; wrong-drop counters still unsent go
    /// to the others first and into the log the snapshot is cut from, so
    /// every copy agrees.
    private func sendSnapshot(to targets: [ConnectionID], host: HostActivityContext) {
        broadcast(takeUnsentWrongDrops(), host: host, except: targets)
        do {
            for m in try snapshot.messages(log: actions, seq: seq) {
                host.send(WordPostActivity.encode(m), to: targets)
            }
        } catch {
            // Not reachable (the game ends first, see `commit`), but never a half snapshot.
            log.write("word-post game too long to send to a joiner")
            for t in targets { host.drop(t, reason: "word-post game too long") }
        }
    }
}
