import Foundation
@testable import LearnModel
import TeamsketchTestSupport
import Testing

/// Buchstaben Post on the wire without sockets: the pool limits, the
/// snapshot that carries the pool once, the member's replica and the move
/// rate limit.
@Suite struct WordPostWireTests {
    typealias F = WordPostFixture

    /// Host times as they go out: whole milliseconds.
    private func t(_ s: Double) -> Date { WireTime(F.at(s)).date }

    /// A pool at every limit at once: 5 000 words of 40 four-byte
    /// characters, hints filling the 2 MiB.
    private func biggestPool() -> WordPool {
        let hintBytes = WordPoolLimits.maxPoolBytes / WordPoolLimits.maxWords - 160
        let items = (0..<WordPoolLimits.maxWords).map { i in
            let word = String(repeating: "😀", count: 38) + String(format: "%02d", i % 100)
            return WordItem(word: "\(i)" + word.dropFirst("\(i)".count), hint: String(repeating: "h", count: hintBytes))
        }
        return WordPool(id: "big", name: "Big", language: "de", items: items)
    }

    private func frame(_ m: WordPostActivity.Message) -> ActivityMessage { WordPostActivity.encode(m) }

    @Test func poolLimitsNameWhatIsTooBig() {
        let ok = WordItem(word: "Hund", hint: "Bellt")
        func pool(_ items: [WordItem]) -> WordPool { WordPool(id: "p", name: "p", language: "de", items: items) }
        #expect(WordPoolLimits.problem(in: pool([ok])) == nil)
        #expect(WordPoolLimits.problem(in: pool(Array(repeating: ok, count: 5_001))) == .tooManyWords(limit: 5_000))
        #expect(WordPoolLimits.problem(in: pool([WordItem(word: String(repeating: "a", count: 41), hint: "x")]))
                == .wordTooLong(word: String(repeating: "a", count: 40) + "…", limit: 40))
        // 40 characters, but each with many combining marks: too many bytes.
        let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 5), count: 40)
        #expect(WordPoolLimits.problem(in: pool([WordItem(word: heavy, hint: "x")])) ==
                .wordTooLong(word: String(repeating: "a\u{301}\u{301}", count: 40), limit: 40))
        #expect(WordPoolLimits.problem(in: pool([WordItem(word: "Hund", hint: String(repeating: "b", count: 301))]))
                == .hintTooLong(word: "Hund", limit: 300))
        let fat = WordItem(word: "Hund", hint: String(repeating: "ü", count: 300))  // 600 bytes
        #expect(WordPoolLimits.problem(in: pool(Array(repeating: fat, count: 4_000))) == .tooManyBytes(limit: 2 << 20))
        #expect(WordPoolLimits.problem(in: biggestPool()) == nil)
    }

    @Test func aPoolBeyondTheLimitsIsAnErrorNeverAnEmptyFrame() {
        let pool = F.bigPool(words: 5_001)
        #expect(throws: WordPoolLimitProblem.tooManyWords(limit: 5_000)) {
            try WordPostSnapshot(pool: pool, finishedBefore: [])
        }
    }

    /// Today's biggest legal game: every snapshot frame fits under the cap,
    /// and a member replaying it holds exactly the host's game.
    @Test func theBiggestPoolGoesInFramesThatFitAndReplaysExactly() throws {
        let pool = biggestPool()
        let finished: Set<String> = [pool.items[3].word, pool.items[4_000].word, "not in the pool"]
        let snapshot = try WordPostSnapshot(pool: pool, finishedBefore: finished)
        // What the host sent so far: the start and a few moves.
        let log = replayableLog(pool: pool, finished: snapshot.finishedBefore)
        #expect(log.count > 10)
        var game = WordPostGame(pool: pool, previouslyFinished: snapshot.finishedBefore)
        for a in log { _ = game.apply(a) }
        let messages = try snapshot.messages(log: log, seq: UInt64(log.count))
        #expect(messages.count >= 5)  // 2 MiB of pool in pieces
        var replica = WordPostReplica()
        var shown: (game: WordPostGame, effects: [WordPostEffect])?
        for m in messages {
            let f = frame(m)
            #expect(f.payload.count + 2 <= SessionLimits.maxFrameLength - (256 << 10))
            shown = try replica.receive(try WordPostActivity.decode(f), me: 1)
        }
        #expect(shown?.game == game)
        #expect(shown?.effects == [])
        #expect(replica.game?.finishedWords.contains("not in the pool") == false)
        #expect(replica.seq == UInt64(log.count))
    }

    /// A log as a host would have it: start, then fill slots with sends and
    /// places, each with a wire time.
    private func replayableLog(pool: WordPool, finished: Set<String>, players: Int = 3,
                               moves: Int = 12) -> [WordPostAction] {
        var g = WordPostGame(pool: pool, previouslyFinished: finished)
        var log: [WordPostAction] = [.start(players: (0..<players).map { PlayerID($0) }, seed: 99, at: t(0))]
        _ = g.apply(log[0])
        for k in 0..<moves {
            let player = PlayerID(k % players)
            guard let word = g.words[player], let slot = word.openSlots.first else { continue }
            let grapheme = word.slots[slot].grapheme
            if !(g.hands[player] ?? []).contains(where: { $0.grapheme == grapheme }),
               let giver = g.players.first(where: { p in (g.hands[p] ?? []).contains { $0.grapheme == grapheme } }),
               let tile = g.hands[giver]?.first(where: { $0.grapheme == grapheme }) {
                let a = WordPostAction.send(letter: tile.id, from: giver, to: player)
                _ = g.apply(a); log.append(a)
            }
            guard let tile = g.hands[player]?.first(where: { WordGraphemes.matches($0.grapheme, grapheme) }) else { continue }
            let a = WordPostAction.place(letter: tile.id, by: player, slot: slot, at: t(Double(k + 1)))
            _ = g.apply(a); log.append(a)
        }
        return log
    }

    /// A wrong drop is answered to the dropper alone; the others get its
    /// counter with the next change and then hold the same game.
    @Test func wrongDropCountersCatchUpWithTheNextChange() throws {
        let pool = F.germanPool
        var host = WordPostGame(pool: pool, players: [0, 1], seed: 4, at: t(0))
        var other = host
        let word = try #require(host.words[0])
        let tile = try #require(host.hands[0]?.first)
        let wrongSlot = try #require(word.openSlots.first { !WordGraphemes.matches(tile.grapheme, word.slots[$0].grapheme) })
        #expect(host.apply(.place(letter: tile.id, by: 0, slot: wrongSlot, at: t(1))) ==
                [.rejected(letter: tile.id, player: 0, slot: wrongSlot)])
        #expect(host != other)
        #expect(other.apply(.wrongPlacements(player: 0, count: 1)) == [])
        #expect(host == other)
        // Counters out of place change nothing.
        #expect(other.apply(.wrongPlacements(player: 7, count: 3)) == [])
        #expect(other.apply(.wrongPlacements(player: 0, count: 0)) == [])
        #expect(host == other)
        // A hostile count cannot overflow.
        #expect(other.apply(.wrongPlacements(player: 0, count: .max)) == [])
        #expect(other.apply(.wrongPlacements(player: 0, count: .max)) == [])
        #expect(other.stats[0]?.wrongPlacements == .max)
    }

    @Test func aReplicaTakesMovesInOrderAndShowsOnlyItsOwnRefusals() throws {
        let pool = F.germanPool
        let snapshot = try WordPostSnapshot(pool: pool, finishedBefore: [])
        var host = WordPostGame(pool: pool, previouslyFinished: [])
        var replica = WordPostReplica()
        for m in try snapshot.messages(log: [], seq: 0) { _ = try replica.receive(m, me: 1) }
        #expect(replica.game == host)
        let start = WordPostAction.start(players: [0, 1], seed: 8, at: t(0))
        let effects = host.apply(start)
        let shown = try #require(try replica.receive(.moved(WordPostMove(seq: 1, actions: [start])), me: 1))
        #expect(shown.game == host && shown.effects == effects)
        // A gap, or a repeat, is out of step.
        #expect(throws: ActivityPayloadError.self) {
            try replica.receive(.moved(WordPostMove(seq: 3, actions: [])), me: 1)
        }
        #expect(throws: ActivityPayloadError.self) {
            try replica.receive(.moved(WordPostMove(seq: 1, actions: [])), me: 1)
        }
        let mine = try #require(host.hands[1]?.first)
        let theirs = try #require(host.hands[0]?.first)
        #expect(try replica.receive(.refused(.place(letter: mine.id, by: 1, slot: 0)), me: 1)?.effects ==
                [.rejected(letter: mine.id, player: 1, slot: 0)])
        #expect(try replica.receive(.refused(.place(letter: theirs.id, by: 0, slot: 0)), me: 1) == nil)
        #expect(try replica.receive(.refused(.send(letter: 424_242, from: 1, to: 0)), me: 1) == nil)
        #expect(replica.game == host)
    }

    @Test func aReplicaRefusesPiecesOutOfPlaceOrBeyondTheLimits() throws {
        let item = WordPostPoolItem(WordItem(word: "Hund", hint: "Bellt"), finishedBefore: false)
        func begin(items: Int, actions: Int) -> WordPostActivity.Message {
            .gameBegin(WordPostGameBegin(seq: 0, poolID: "p", poolName: "p", language: "de",
                                         itemCount: items, actionCount: actions))
        }
        var r = WordPostReplica()
        #expect(throws: ActivityPayloadError.self) { try r.receive(.moved(WordPostMove(seq: 1, actions: [])), me: 1) }
        #expect(throws: ActivityPayloadError.self) { try r.receive(.poolItems([item]), me: 1) }
        #expect(throws: ActivityPayloadError.self) { try r.receive(.intent(.place(letter: 1, by: 1, slot: 0)), me: 1) }
        _ = try r.receive(begin(items: 1, actions: 1), me: 1)
        #expect(throws: ActivityPayloadError.self) { try r.receive(.actions([.nextRound(at: t(0))]), me: 1) }
        r = WordPostReplica()
        _ = try r.receive(begin(items: 1, actions: 0), me: 1)
        #expect(throws: ActivityPayloadError.self) { try r.receive(.poolItems([item, item]), me: 1) }
        // More bytes than any pool may hold, in pieces that each read fine.
        r = WordPostReplica()
        _ = try r.receive(begin(items: 5_000, actions: 0), me: 1)
        let fat = WordPostPoolItem(WordItem(word: "Hund", hint: String(repeating: "ü", count: 1_000)), finishedBefore: false)
        #expect(throws: ActivityPayloadError.self) {
            for _ in 0..<10 { _ = try r.receive(.poolItems(Array(repeating: fat, count: 200)), me: 1) }
        }
        // Counts beyond the limits do not even read.
        var w = WireWriter()
        w.varint(0); w.string("p"); w.string("p"); w.string("de"); w.varint(5_001); w.varint(0)
        #expect(throws: ActivityPayloadError.self) {
            try WordPostActivity.decode(ActivityMessage(type: 50, payload: w.bytes))
        }
        var s = WireWriter()
        s.varint(1); s.varint(1); s.u8(1); s.varint(17)
        for p in 0..<17 { s.varint(p) }
        s.varint(1); s.zigzag(0)
        #expect(throws: ActivityPayloadError.self) {
            try WordPostActivity.decode(ActivityMessage(type: 53, payload: s.bytes))
        }
        // A word or a hint over its byte cap.
        var i = WireWriter()
        i.varint(1); i.string(String(repeating: "a", count: 257)); i.string("h"); i.u8(1); i.u8(0)
        #expect(throws: ActivityPayloadError.self) {
            try WordPostActivity.decode(ActivityMessage(type: 51, payload: i.bytes))
        }
    }

    /// A hostile or broken host: every frame of a real game, one of them
    /// mutated (bytes flipped, cut short, grown, retyped), thousands of times.
    /// A member either reads it or refuses it; it never traps, and what it
    /// shows is always a game its own reducer made.
    @Test func mutatedHostFramesAreReadOrRefusedNeverATrap() throws {
        let pool = F.germanPool
        let snapshot = try WordPostSnapshot(pool: pool, finishedBefore: [pool.items[0].word])
        let log = replayableLog(pool: pool, finished: snapshot.finishedBefore, players: 2, moves: 30)
        let split = log.count - 5
        var frames = try snapshot.messages(log: Array(log[..<split]), seq: UInt64(split)).map(frame)
        for (k, a) in log[split...].enumerated() {
            frames.append(frame(.moved(WordPostMove(seq: UInt64(split + k + 1), actions: [.wrongPlacements(player: 1, count: 2), a]))))
        }
        frames.append(frame(.refused(.place(letter: 1, by: 1, slot: 0))))
        var reference = WordPostReplica()
        for f in frames { _ = try reference.receive(try WordPostActivity.decode(f), me: 1) }
        #expect(reference.game?.players == [0, 1])
        var rng = SplitMix64(seed: 2026)
        var refused = 0
        for _ in 0..<3_000 {
            let target = Int(rng.next() % UInt64(frames.count))
            let mutated = mutate(frames[target], &rng)
            // Bytes after the last field are ignored: such a frame means the same.
            let sameMeaning = (try? WordPostActivity.decode(mutated)) == (try? WordPostActivity.decode(frames[target]))
            var replica = WordPostReplica()
            do {
                for (k, f) in frames.enumerated() {
                    _ = try replica.receive(try WordPostActivity.decode(k == target ? mutated : f), me: 1)
                }
                if sameMeaning { #expect(replica.game == reference.game) }
            } catch {
                refused += 1  // the member closes the connection and rejoins
            }
        }
        #expect(refused > 1_000)  // the mutations do bite
    }

    private func mutate(_ f: ActivityMessage, _ rng: inout SplitMix64) -> ActivityMessage {
        var payload = f.payload
        var type = f.type
        switch rng.next() % 5 {
        case 0 where !payload.isEmpty:
            for _ in 0...(rng.next() % 4) { payload[Int(rng.next() % UInt64(payload.count))] = UInt8(truncatingIfNeeded: rng.next()) }
        case 1 where !payload.isEmpty:
            payload.removeLast(Int(rng.next() % UInt64(payload.count)) + 1)
        case 2:
            payload += (0..<(rng.next() % 16)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        case 3:
            type = UInt8(48 + rng.next() % 16)
        default:
            // A huge varint where a count or seq would be.
            if !payload.isEmpty { payload.replaceSubrange(0..<1, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) }
        }
        return ActivityMessage(type: type, payload: payload)
    }

    @Test func aTokenBucketAllowsABurstThenTheRate() {
        var b = TokenBucket(capacity: 3, perSecond: 2)
        let s: UInt64 = 1_000_000_000
        #expect((0..<5).map { _ in b.take(atNanoseconds: 10 * s) } == [true, true, true, false, false])
        #expect(b.take(atNanoseconds: 10 * s + s / 4) == false)  // half a token
        #expect(b.take(atNanoseconds: 10 * s + s / 2) == true)
        // A clock that goes back gives nothing.
        #expect(b.take(atNanoseconds: 1) == false)
        // A long rest fills it up to the burst, no more.
        #expect((0..<5).map { _ in b.take(atNanoseconds: 100 * s) } == [true, true, true, false, false])
    }
}
