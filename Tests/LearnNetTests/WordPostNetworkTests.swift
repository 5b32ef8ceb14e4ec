import Foundation
import NIOCore
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// Buchstaben Post over real loopback TCP: host-authoritative play through
/// the session layer (WordPostHost / WordPostClient).
@Suite(.serialized) struct WordPostNetworkTests {
    @Test func fourPlayersPlayAFullSeededGameAndAllSeeTheSameEnd() async throws {
        let pool = try BuiltInPools.german()
        let (host, clients) = try await WordPostLoopback.started(3, pool: pool, seed: 7)
        let start = try #require(await host.game())
        #expect(start.players == [0, 1, 2, 3])
        let seats = [WordPostSeat.host(host)] + clients.map(WordPostSeat.client)
        let bots = seats.map { seat in Task { await seat.play() } }
        try await eventually(timeout: .seconds(120), "game over") { await host.game()?.isEnded == true }
        let final = try #require(await host.game())
        #expect(final.phase == .ended(.poolEmpty) || final.phase == .ended(.hostEnded))
        #expect(final.rounds.count >= 2)
        #expect(final.rounds.allSatisfy { $0.results.allSatisfy(\.finished) })
        for c in clients { try await eventually("client caught up") { c.game == final } }
        for b in bots { b.cancel() }
        await host.shutdown()
    }

    @Test func aPlayerVanishesMidRoundAndTheOthersFinish() async throws {
        let pool = try BuiltInPools.german()
        let (host, clients) = try await WordPostLoopback.started(3, pool: pool, seed: 11,
                                                                 rejoinWindow: .milliseconds(300))
        let leaver = clients[2]
        let leaverIndex = try #require(leaver.index)
        let stayers = [WordPostSeat.host(host)] + clients.prefix(2).map(WordPostSeat.client)
        let bots = stayers.map { seat in Task { await seat.play() } }
        // Round 1 cannot finish while the leaver's word is open.
        try await Task.sleep(for: .milliseconds(100))
        #expect(await host.game()?.phase == .playing(round: 1))
        await leaver.session.vanishForTesting()
        try await eventually(timeout: .seconds(120), "game over") { await host.game()?.isEnded == true }
        let final = try #require(await host.game())
        #expect(final.departed == [leaverIndex])
        #expect(final.players == [0, 1, 2])
        #expect(final.phase == .ended(.poolEmpty))
        #expect(final.rounds.count >= 2)
        for c in clients.prefix(2) { try await eventually("client caught up") { c.game == final } }
        for b in bots { b.cancel() }
        await host.shutdown()
    }

    @Test func aRejoiningPlayerGetsTheCurrentGame() async throws {
        let pool = try BuiltInPools.english()
        let (host, clients) = try await WordPostLoopback.started(2, pool: pool, seed: 3)
        let c = clients[0]
        await c.session.dropConnectionForTesting()  // rejoins by itself with its token
        // A move by the host while the client is away (or back).
        let g = try #require(await host.game())
        if let m = WordPostBot.moves(g, me: 0).first { WordPostSeat.host(host).act(m) }
        try await eventually("rejoined and current") {
            let now = await host.game()
            return await host.lobby().member(c.index!)?.connected == true && c.game == now
        }
        #expect(await host.game()?.players.contains(c.index!) == true)
        await host.shutdown()
    }

    @Test func aForgedMoveIsIgnored() async throws {
        let pool = try BuiltInPools.german()
        let (host, clients) = try await WordPostLoopback.started(2, pool: pool, seed: 5)
        let forger = clients[0]
        let me = try #require(forger.index)
        let before = try #require(await host.game())
        // Someone else's tile, moved in their name (it would be legal for them).
        let victim = try #require(before.players.first { $0 != me && !(before.hands[$0] ?? []).isEmpty })
        let tile = before.hands[victim]![0]
        forger.sendIntentForTesting(.send(letter: tile.id, from: victim, to: me))
        // An honest move after it on the same connection: once it shows, the
        // forged one has been handled.
        let honest = try #require(WordPostBot.moves(before, me: me).first)
        forger.sendIntentForTesting(honest)
        try await eventually("honest move applied") { await host.game() != before }
        let after = try #require(await host.game())
        #expect(after.holder(of: tile.id)?.player == victim)
        #expect(await host.forgedIntentCount() == 1)
        await host.shutdown()
    }

    @Test func aGarbageWordPostFrameClosesOnlyThatConnection() async throws {
        let pool = try BuiltInPools.german()
        let events = WordPostEventLog()
        var config = WordPostHost.Configuration(name: "Teacher", pool: pool)
        config.session.acceptAll = true
        config.session.bindHost = "127.0.0.1"
        config.session.log = .silent
        config.seed = 9
        let host = try await WordPostHost.start(config, onEvent: events.handler)
        let good = try await WordPostLoopback.join(host, "Good")
        let raw = try await RawPeer.connect(port: host.port)
        try await raw.send(.hello(Hello(peerID: UUID(), name: "Bad", role: .drawer)))
        try await eventually("bad one in") { await host.lobby().connectedDrawers == 3 }
        host.startGame()
        try await eventually("game seen") { good.game?.round == 1 }
        // Type 48 (intent) with an unknown intent kind.
        try await raw.send([0, 0, 0, 3, SessionMessage.frameVersion, 48, 9])
        try await eventually("garbage peer closed") { !raw.isOpen }
        // The host tells of the drop just after closing.
        try await eventually("the host told of it") { events.contains { if case .connectionDropped = $0 { true } else { false } } }
        // The good member plays on.
        let g = try #require(good.game)
        let move = try #require(WordPostBot.moves(g, me: good.index!).first)
        WordPostSeat.client(good).act(move)
        try await eventually("good move applied") { await host.game() != g }
        #expect(await host.lobby().member(good.index!)?.connected == true)
        await host.shutdown()
    }

    @Test func aMemberCannotSendHostUpdates() async throws {
        let pool = try BuiltInPools.german()
        let host = try await WordPostLoopback.host(pool: pool)
        let raw = try await RawPeer.connect(port: host.port)
        try await raw.send(.hello(Hello(peerID: UUID(), name: "Bad", role: .drawer)))
        try await eventually("in") { await host.lobby().connectedDrawers == 2 }
        let fake = WordPostMove(seq: 1, actions: [.start(players: [0, 1], seed: 1, at: Date())])
        try await raw.send(.activity(WordPostActivity.encode(.moved(fake))))
        try await eventually("closed") { !raw.isOpen }
        #expect(await host.game() == nil)
        await host.shutdown()
    }

    @Test func aLoneHostMayStartAndEndTheGame() async throws {
        let pool = try BuiltInPools.english()
        let events = WordPostEventLog()
        let host = try await WordPostLoopback.host(pool: pool, events: events)
        host.startGame()
        try await eventually("started alone") { await host.game()?.round == 1 }
        #expect(await host.game()?.players == [0])
        #expect(await host.lobby().wordPost?.poolID == BuiltInPools.englishID)
        host.endGame()
        try await eventually("ended") { events.contains { $0 == .ended(.hostEnded) } }
        #expect(await host.game()?.phase == .ended(.hostEnded))
        await host.shutdown()
    }

    @Test func hostEndsTheGameForEveryone() async throws {
        let pool = try BuiltInPools.german()
        let events = WordPostEventLog()
        let host = try await WordPostLoopback.host(pool: pool)
        let c = try await WordPostLoopback.join(host, "P1", events: events)
        try await eventually("in") { await host.lobby().connectedDrawers == 2 }
        host.startGame()
        try await eventually("game seen") { c.game?.round == 1 }
        host.endGame()
        try await eventually("ended for the member") { events.contains { $0 == .ended(.hostEnded) } }
        #expect(c.game?.phase == .ended(.hostEnded))
        #expect(c.game == (await host.game()))
        await host.shutdown()
    }
}

/// Byte layouts of the word-post frames and the lobby's activity block.
struct WordPostCodecTests {
    private func roundTrip(_ m: SessionMessage) throws -> SessionMessage {
        var d = FrameDecoder()
        d.append(m.frame())
        return try #require(try d.next())
    }

    /// Through the frame codec (which carries it unread) and back through the activity.
    private func roundTrip(_ m: WordPostActivity.Message) throws -> WordPostActivity.Message {
        let carried = try roundTrip(.activity(WordPostActivity.encode(m)))
        guard case .activity(let a) = carried else { throw ActivityPayloadError("not an activity frame") }
        return try WordPostActivity.decode(a)
    }

    @Test func intentsAndHostMessagesRoundTrip() throws {
        for i: WordPostIntent in [.place(letter: 7, by: 2, slot: 3), .send(letter: 300, from: 0, to: 3)] {
            #expect(try roundTrip(.intent(i)) == .intent(i))
            #expect(try roundTrip(.refused(i)) == .refused(i))
            // The intent's frame type stays that of protocol versions 1 and 2.
            #expect(WordPostActivity.encode(.intent(i)).type == 48)
        }
        let t = WireTime(Date(timeIntervalSince1970: 1_718_000_000.125)).date
        let actions: [WordPostAction] = [
            .start(players: [0, 1, 2], seed: .max, at: t), .place(letter: 1, by: 0, slot: 2, at: t),
            .send(letter: 3, from: 1, to: 2), .playerLeft(2, at: t), .nextRound(at: t), .endGame(at: t),
            .wrongPlacements(player: 1, count: 3),
        ]
        #expect(try roundTrip(.moved(WordPostMove(seq: 12, actions: actions))) == .moved(WordPostMove(seq: 12, actions: actions)))
        #expect(try roundTrip(.actions(actions)) == .actions(actions))
        let begin = WordPostGameBegin(seq: 4, poolID: "builtin.de", poolName: "Deutsch", language: "de",
                                      itemCount: 2, actionCount: 7)
        #expect(try roundTrip(.gameBegin(begin)) == .gameBegin(begin))
        let items = [WordPostPoolItem(WordItem(word: "Bär", hint: "Tier", priority: 0), finishedBefore: true),
                     WordPostPoolItem(WordItem(word: "Cafe\u{301}", hint: "Kaffee", priority: 100), finishedBefore: false)]
        #expect(try roundTrip(.poolItems(items)) == .poolItems(items))
    }

    @Test func lobbyCarriesTheWordPostBlock() throws {
        let base = HostSession(hostName: "T", params: SessionParams(name: "S")).lobby
        let info = WordPostLobbyInfo(poolID: "builtin.de", poolName: "Deutsch", language: "de", wordCount: 60,
                                     soundsOn: false)
        var wp = base
        wp.activityInfo = WordPostActivity.declaration(info).info
        let decoded = try roundTrip(.lobby(wp))
        #expect(decoded == .lobby(wp))
        guard case .lobby(let l) = decoded else { return }
        #expect(l.wordPost == info)
        #expect(wp.activity == .wordpost && base.activity == .sketch)
        #expect(base.wordPost == nil)
        #expect(try roundTrip(.lobby(base)) == .lobby(base))
    }

    @Test func truncatedOrUnknownWordPostPayloadsAreErrors() throws {
        for payload: [UInt8] in [[9], [1, 0], [], [0, 1, 99]] {
            var d = FrameDecoder()
            let type: UInt8 = payload.count == 3 ? 53 : 48
            d.append([0, 0, 0, UInt8(2 + payload.count), SessionMessage.frameVersion, type] + payload)
            // The frame codec carries it unread; the activity refuses it.
            let carried = try #require(try d.next())
            guard case .activity(let m) = carried else { Issue.record("not carried as an activity frame"); continue }
            #expect(throws: ActivityPayloadError.self) { try WordPostActivity.decode(m) }
        }
        #expect(throws: ActivityPayloadError.self) { try WordPostActivity.decodeLobbyInfo([3, 0x61]) }
    }
}
