import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// Buchstaben Post on a hostile network, over real loopback TCP: a big pool,
/// a flood of moves and rejected moves must not break the game for anybody,
/// nor cost the others anything.
@Suite(.serialized) struct WordPostHostileNetworkTests {
    private func isLost(_ e: WordPostEvent) -> Bool { if case .connectionLost = e { true } else { false } }

    private func changes(_ log: WordPostEventLog) -> Int {
        log.all.count { if case .gameChanged = $0 { true } else { false } }
    }

    /// A pool whose whole game state is over 1 MiB of JSON used to go out as
    /// an empty blob: every member failed to read it and reconnected every
    /// 50 ms, for ever. The pool goes once now, in pieces that fit a frame.
    @Test func aBigPoolReachesEveryMemberWithoutReconnecting() async throws {
        let pool = WordPostFixture.bigPool(words: 5_000)
        let events = WordPostEventLog()
        let host = try await WordPostLoopback.host(pool: pool)
        let c = try await WordPostLoopback.join(host, "P1", events: events)
        try await eventually("in") { await host.lobby().connectedDrawers == 2 }
        host.startGame()
        try await eventually(timeout: .seconds(15), "game seen") { c.game?.round == 1 }
        #expect(c.game == (await host.game()))
        #expect(c.game?.pool.items.count == 5_000)
        #expect(!events.contains(isLost))
        // The pool came once (about 1 MiB); a move then arrives as a small change.
        let afterStart = c.receivedActivityBytesForTesting
        #expect(afterStart > 1_000_000 && afterStart < 1_300_000)
        let g = try #require(await host.game())
        let move = try #require(WordPostBot.moves(g, me: 0).first)
        WordPostSeat.host(host).act(move)
        try await eventually("move seen") {
            let now = await host.game()
            return c.game == now && c.game != g
        }
        #expect(!events.contains(isLost))
        #expect(c.receivedActivityBytesForTesting - afterStart < 64)
        await host.shutdown()
    }

    /// A late joiner gets the pool and the game so far, and a wrong drop the
    /// others have not heard of yet is told to them first, so every copy
    /// is the host's.
    @Test func aLateJoinerGetsTheGameSoFarAndEveryCopyAgrees() async throws {
        let pool = WordPostFixture.bigPool(words: 3_000)
        let host = try await WordPostLoopback.host(pool: pool)
        let early = try await WordPostLoopback.join(host, "Early")
        try await eventually("in") { await host.lobby().connectedDrawers == 2 }
        host.startGame()
        try await eventually("game seen") { early.game?.round == 1 }
        // The host drops a tile on a slot where it does not fit: counted,
        // answered to the host alone.
        let g = try #require(await host.game())
        let word = try #require(g.words[0])
        let wrong = (g.hands[0] ?? []).lazy.compactMap { tile in
            word.openSlots.first { !WordGraphemes.matches(tile.grapheme, word.slots[$0].grapheme) }.map { (tile, $0) }
        }.first
        let (tile, slot) = try #require(wrong)
        host.place(letter: tile.id, slot: slot)
        try await eventually("counted") { await host.game()?.stats[0]?.wrongPlacements == 1 }
        #expect(early.game?.stats[0]?.wrongPlacements == 0)
        let lateEvents = WordPostEventLog()
        let late = try await WordPostLoopback.join(host, "Late", events: lateEvents)
        let now = try #require(await host.game())
        try await eventually("late joiner has the game") { late.game == now }
        try await eventually("early one caught up") { early.game == now }
        // The counted wrong drop reaches the joiner inside its snapshot, not
        // as a move before it (which it could not apply and would reconnect).
        #expect(!lateEvents.contains { if case .connectionLost = $0 { true } else { false } }, "\(lateEvents.all)")
        #expect(late.game?.pool.items.count == 3_000)
        #expect(late.game?.players == [0, 1])
        await host.shutdown()
    }

    /// A host whose game cannot be read (broken, or not ours) used to keep a
    /// member reconnecting every 50 ms for ever. The member now gives up
    /// after a few tries, says so, and leaves.
    @Test func aMemberGivesUpOnAHostWhoseGameCannotBeRead() async throws {
        let garbage = UnreadableWordPostHost()
        var config = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Kaputt"))
        config.bindHost = "127.0.0.1"
        config.acceptAll = true
        config.log = .silent
        let host = try await SessionHost.start(config, activity: garbage)
        let events = WordPostEventLog()
        var cc = WordPostClient.Configuration(host: "127.0.0.1", port: host.port, name: "P1")
        cc.session.log = .silent
        let c = try await WordPostClient.connect(cc, onEvent: events.handler)
        try await eventually("gave up") { events.contains { if case .gaveUp = $0 { true } else { false } } }
        let sent = garbage.sent
        try await Task.sleep(for: .milliseconds(600))
        #expect(sent == WordPostClient.maxUnreadableInARow)
        #expect(garbage.sent == sent)  // no more rejoins
        #expect(c.game == nil)
        await host.shutdown()
    }

    /// A pool too big to send is refused before anything opens: no lobby,
    /// no port, nobody waiting for a game that cannot come.
    @Test func aPoolBeyondTheLimitsOpensNoLobby() async throws {
        var config = WordPostHost.Configuration(name: "Teacher", pool: WordPostFixture.bigPool(words: 5_001))
        config.session.bindHost = "127.0.0.1"
        config.session.port = 0
        config.session.log = .silent
        await #expect(throws: WordPoolLimitProblem.tooManyWords(limit: WordPoolLimits.maxWords)) {
            _ = try await WordPostHost.start(config)
        }
    }

    /// A drop on a slot that is already filled, and one of a tile the member
    /// does not hold (stale), are answered to that member alone: the others
    /// get nothing, and the dropper's tile springs back.
    @Test func aRejectedMoveIsAnsweredOnlyToTheMover() async throws {
        let pool = try BuiltInPools.german()
        let hostEvents = WordPostEventLog()
        let host = try await WordPostLoopback.host(pool: pool, events: hostEvents)
        let moverEvents = WordPostEventLog(), otherEvents = WordPostEventLog()
        let mover = try await WordPostLoopback.join(host, "P1", events: moverEvents)
        let other = try await WordPostLoopback.join(host, "P2", events: otherEvents)
        try await eventually("in") { await host.lobby().connectedDrawers == 3 }
        host.startGame()
        for c in [mover, other] { try await eventually("game seen") { c.game?.round == 1 } }
        // The copy changes a moment before its event is told.
        try await eventually("the other told of the start") {
            otherEvents.all.contains { if case .gameChanged(let g, _) = $0 { g.round == 1 } else { false } }
        }
        let me = try #require(mover.index)
        let g = try #require(mover.game)
        let tile = try #require(g.hands[me]?.first)
        let given = try #require(g.words[me]?.slots.firstIndex { $0.given })
        let otherBefore = changes(otherEvents)
        let otherBytes = other.receivedActivityBytesForTesting

        mover.place(letter: tile.id, slot: given)
        try await eventually("filled-slot drop answered") {
            moverEvents.contains { $0.rejectedLetter == tile.id }
        }
        // A tile the mover does not hold (its copy was behind): answered on
        // the wire, but there is no tile of it on the board to spring back.
        let moverBytes = mover.receivedActivityBytesForTesting
        mover.place(letter: 999_999, slot: 0)
        try await eventually("stale drop answered") { mover.receivedActivityBytesForTesting > moverBytes }
        #expect(mover.receivedActivityBytesForTesting - moverBytes < 16)
        #expect(!moverEvents.contains { $0.rejectedLetter == 999_999 })
        // Anything meant for the others would have been sent before the answers.
        try await Task.sleep(for: .milliseconds(200))
        // The host's own refused drop springs back on the host alone.
        let hg = try #require(await host.game())
        let hostTile = try #require(hg.hands[0]?.first)
        let hostGiven = try #require(hg.words[0]?.slots.firstIndex { $0.given })
        host.place(letter: hostTile.id, slot: hostGiven)
        try await eventually("host's drop answered") { hostEvents.contains { $0.rejectedLetter == hostTile.id } }
        host.place(letter: 888_888, slot: 0)  // not a tile the host holds: nothing to spring back
        try await Task.sleep(for: .milliseconds(200))
        #expect(!hostEvents.contains { $0.rejectedLetter == 888_888 })
        #expect(changes(otherEvents) == otherBefore)
        #expect(other.receivedActivityBytesForTesting == otherBytes)
        #expect(mover.game == (await host.game()))
        // A move that counts reaches the others as a few bytes, not the game.
        let g2 = try #require(mover.game)
        let good = try #require(WordPostBot.moves(g2, me: me).first)
        WordPostSeat.client(mover).act(good)
        try await eventually("move seen by the other") {
            let now = await host.game()
            return other.game != g2 && other.game == now
        }
        #expect(other.receivedActivityBytesForTesting - otherBytes < 64)
        await host.shutdown()
    }

    /// One member sending thousands of moves: the host drops most of them,
    /// nobody else hears of them, and an honest move still goes through.
    @Test func aFloodOfMovesFromOneMemberHurtsNobody() async throws {
        let pool = try BuiltInPools.german()
        let host = try await WordPostLoopback.host(pool: pool, classroomMoveRate: true)
        let floodEvents = WordPostEventLog(), honestEvents = WordPostEventLog()
        let flooder = try await WordPostLoopback.join(host, "Flood", events: floodEvents)
        let honest = try await WordPostLoopback.join(host, "Honest", events: honestEvents)
        try await eventually("in") { await host.lobby().connectedDrawers == 3 }
        host.startGame()
        for c in [flooder, honest] { try await eventually("game seen") { c.game?.round == 1 } }
        let fme = try #require(flooder.index)
        let g = try #require(flooder.game)
        let tile = try #require(g.hands[fme]?.first)
        let given = try #require(g.words[fme]?.slots.firstIndex { $0.given })
        let honestBefore = changes(honestEvents)
        let floodBefore = changes(floodEvents)

        let victim = try #require(honest.index)
        for k in 0..<5_000 {
            // Half of them in the honest member's name: not even logged once the bucket is empty.
            flooder.sendIntentForTesting(.place(letter: tile.id, by: k % 2 == 0 ? fme : victim, slot: given))
        }
        let hg = try #require(honest.game)
        let move = try #require(WordPostBot.moves(hg, me: honest.index!).first)
        WordPostSeat.client(honest).act(move)
        try await eventually(timeout: .seconds(10), "honest move applied") { await host.game() != hg }
        try await Task.sleep(for: .milliseconds(300))
        // The honest member heard of its own move only (one change), not of the flood.
        #expect(changes(honestEvents) - honestBefore <= 2)
        // The flooder got at most a bucketful of answers, not 5 000.
        #expect(changes(floodEvents) - floodBefore < 100)
        #expect(await host.lobby().member(honest.index!)?.connected == true)
        try await eventually("flood handled") { await host.throttledIntentCount() > 4_900 }
        #expect(await host.forgedIntentCount() <= 30)
        #expect(honest.game == (await host.game()))
        await host.shutdown()
    }
}

extension WordPostEvent {
    /// The letter of a rejection this event reports, if it is one.
    var rejectedLetter: LetterID? {
        guard case .gameChanged(_, let effects) = self else { return nil }
        for case .rejected(let letter, _, _) in effects { return letter }
        return nil
    }
}

/// A host that answers every accept with a word-post frame nobody can read
/// (pool items before any game began), counting how often.
final class UnreadableWordPostHost: HostActivity, @unchecked Sendable {
    let declaration = WordPostActivity.declaration(WordPostLobbyInfo(poolID: "x", poolName: "x", language: "de", wordCount: 1))
    private let lock = NSLock()
    private var _sent = 0
    var sent: Int { lock.withLock { _sent } }

    func received(_ message: ActivityMessage, from member: MemberIndex, on connection: ConnectionID,
                  host: HostActivityContext) throws(ActivityPayloadError) {}

    func performed(_ effects: [HostSession.Effect], host: HostActivityContext) {
        for case .send(.accepted, let targets) in effects {
            let item = WordPostPoolItem(WordItem(word: "Hund", hint: "Bellt"), finishedBefore: false)
            // Counted before it goes: the member can read it, give up and
            // have the test look before this thread counts (seen under load).
            lock.withLock { _sent += 1 }
            host.send(WordPostActivity.encode(.poolItems([item])), to: targets)
        }
    }
}

/// A joiner's whole word-game snapshot is queued at once, so the longest
/// game with the biggest pool must fit a connection's queue with room to
/// spare; otherwise that joiner is dropped as too slow and rejoins forever.
@Suite struct WordPostSnapshotSizeTests {
    @Test func theLongestGameWithTheBiggestPoolFitsAConnectionsQueue() throws {
        // Words of 4-byte characters and hints that fill the pool's byte limit.
        let hintBytes = WordPoolLimits.maxPoolBytes / WordPoolLimits.maxWords - 160
        let items = (0..<WordPoolLimits.maxWords).map { i in
            WordItem(word: "\(i)" + String(repeating: "😀", count: 38).dropFirst("\(i)".count),
                     hint: String(repeating: "h", count: hintBytes))
        }
        let pool = WordPool(id: "big", name: "Big", language: "de", items: items)
        let snapshot = try WordPostSnapshot(pool: pool, finishedBefore: [])
        // The action that takes the most bytes and can be repeated: a place
        // with the largest ids and a time.
        let place = WordPostAction.place(letter: .max, by: .max, slot: Int(Int32.max),
                                         at: Date(timeIntervalSince1970: 4_000_000_000))
        let log = [WordPostAction](repeating: place, count: WordPostWireLimits.maxLogActions)
        let bytes = try snapshot.messages(log: log, seq: UInt64(log.count))
            .reduce(0) { $0 + SessionMessage.activity(WordPostActivity.encode($1)).frame().count }
        #expect(bytes <= TransportOptions().maxQueuedBytes * 3 / 4, "\(bytes) bytes")
    }
}
