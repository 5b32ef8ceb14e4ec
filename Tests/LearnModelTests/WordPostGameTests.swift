import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing

@Suite struct WordPostGameTests {
    typealias F = WordPostFixture

    @Test func graphemesAreTilesAndMatchCaseSensitively() {
        #expect(WordGraphemes.split("Straße") == ["S", "t", "r", "a", "ß", "e"])
        #expect(WordGraphemes.split("Cafe\u{301}") == ["C", "a", "f", "e\u{301}"])
        #expect(WordGraphemes.split("Bär").count == 3)
        #expect(WordGraphemes.matches("e\u{301}", "\u{E9}"), "canonically equal spellings look the same")
        #expect(!WordGraphemes.matches("ä", "Ä"))
        #expect(!WordGraphemes.matches("a", "ä"))
        #expect(!WordGraphemes.matches("e", "e\u{301}"))
    }

    @Test func rightLetterSnapsInAndWrongOneSpringsBackChangingOnlyTheStat() throws {
        // "Anna" hides two letters; find a deal that hides the capital "A"
        // and the small "a", so case-sensitivity is what decides.
        let pool = WordPool(id: "x", name: "x", language: "de", items: [WordItem(word: "Anna", hint: "Ein Name")])
        let seed = try #require((UInt64(0)..<500).first { seed in
            let g = WordPostGame(pool: pool, players: [0], seed: seed, at: F.t0)
            return g.words[0]!.openSlots == [0, 3]
        })
        var game = WordPostGame(pool: pool, players: [0], seed: seed, at: F.t0)
        let capital = try #require(game.hands[0]!.first { $0.grapheme == "A" })
        let small = try #require(game.hands[0]!.first { $0.grapheme == "a" })
        let before = game
        #expect(game.apply(.place(letter: small.id, by: 0, slot: 0, at: F.at(1))) ==
                [.rejected(letter: small.id, player: 0, slot: 0)])
        #expect(game.stats[0]!.wrongPlacements == 1)
        #expect(game.words[0]!.wrongPlacements == 1)
        #expect(game.hands == before.hands)
        #expect(game.words[0]!.slots == before.words[0]!.slots)
        #expect(game.phase == before.phase)
        // A shown slot rejects without counting a mistake: a missed drop.
        #expect(game.apply(.place(letter: capital.id, by: 0, slot: 1, at: F.at(1))) ==
                [.rejected(letter: capital.id, player: 0, slot: 1)])
        #expect(game.stats[0]!.wrongPlacements == 1)

        #expect(game.apply(.place(letter: capital.id, by: 0, slot: 0, at: F.at(2))) ==
                [.placed(letter: capital.id, player: 0, slot: 0)])
        #expect(game.words[0]!.slots[0].placed == capital.id)
        #expect(game.hands[0] == [small])
        #expect(game.apply(.place(letter: small.id, by: 0, slot: 3, at: F.at(3))) ==
                [.placed(letter: small.id, player: 0, slot: 3), .wordFinished(0), .roundFinished(round: 1),
                 .gameEnded(.poolEmpty)])
        #expect(game.rounds.last?.results.first?.wrongPlacements == 1)
    }

    @Test func umlautsSharpSAndCombiningMarksAreSingleTiles() throws {
        for seed in UInt64(0)..<200 {
            var game = WordPostGame(pool: F.germanPool, players: [0, 1, 2, 3], seed: seed, at: F.t0)
            for p in game.players {
                let word = game.words[p]!
                #expect(word.slots.count == word.item.word.count)
            }
            for tile in game.players.flatMap({ game.hands[$0]! }) { #expect(tile.grapheme.count == 1) }
            #expect(F.finishRound(&game, at: F.at(1)).contains(.roundFinished(round: 1)))
        }
    }

    @Test func staleOrForeignActionsChangeNothing() throws {
        var game = WordPostGame(pool: F.germanPool, players: [0, 1], seed: 7, at: F.t0)
        let before = game
        let tile = try #require(game.hands[0]!.first)
        #expect(game.apply(.place(letter: tile.id, by: 1, slot: 0, at: F.at(1))) == [], "not their tile")
        #expect(game.apply(.place(letter: 9999, by: 0, slot: 0, at: F.at(1))) == [])
        #expect(game.apply(.place(letter: tile.id, by: 0, slot: 99, at: F.at(1))) == [])
        #expect(game.apply(.send(letter: tile.id, from: 0, to: 0)) == [])
        #expect(game.apply(.send(letter: tile.id, from: 0, to: 7)) == [], "no such player")
        #expect(game.apply(.nextRound(at: F.at(1))) == [], "round not finished")
        #expect(game.apply(.start(players: [0], seed: 1, at: F.at(1))) == [])
        #expect(game == before)
    }

    @Test func sendingMovesATileAndCountsForBoth() throws {
        var game = WordPostGame(pool: F.germanPool, players: [3, 5], seed: 11, at: F.t0)
        let tile = try #require(game.hands[3]!.first ?? nil)
        #expect(game.apply(.send(letter: tile.id, from: 3, to: 5)) == [.sent(letter: tile.id, from: 3, to: 5)])
        #expect(game.hands[5]!.last == tile)
        #expect(game.holder(of: tile.id)?.player == 5)
        #expect(game.stats[3]!.lettersSent == 1 && game.stats[5]!.lettersReceived == 1)
        #expect(game.words[3]!.lettersSent == 1 && game.words[5]!.lettersReceived == 1)
    }

    @Test func roundWaitsForEveryoneThenTheNextIsDealt() throws {
        var game = WordPostGame(pool: F.germanPool, players: [0, 1, 2], seed: 3, at: F.t0)
        // Player 0 finishes alone: no round end, no next round.
        var effects: [WordPostEffect] = []
        while let e = F.fillOne(&game, player: 0, at: F.at(5)) { effects += e }
        #expect(effects.contains(.wordFinished(0)))
        #expect(!effects.contains(.roundFinished(round: 1)))
        #expect(game.phase == .playing(round: 1))
        #expect(game.apply(.nextRound(at: F.at(6))) == [])
        // A finished player can still help: sending stays allowed.
        effects = F.finishRound(&game, at: F.at(10))
        #expect(effects.last == .roundFinished(round: 1))
        #expect(game.phase == .roundFinished(round: 1))
        let summary = try #require(game.rounds.last)
        #expect(summary.results.count == 3 && summary.results.allSatisfy(\.finished))
        #expect(summary.results.first { $0.player == 0 }?.milliseconds == 5000)
        #expect(summary.results.first { $0.player == 1 }?.milliseconds == 10000)
        let firstWords = Set(game.words.values.map(\.item.word))
        #expect(game.apply(.nextRound(at: F.at(20))) == [.roundDealt(round: 2)])
        #expect(Set(game.words.values.map(\.item.word)).isDisjoint(with: firstWords))
        #expect(game.stats.values.allSatisfy { $0.wordsFinished == 1 })
    }

    @Test func aSeededGamePlaysToTheEndOfThePoolWithoutRepeatingWords() throws {
        for players in 1...4 {
            var game = WordPostGame(pool: F.germanPool, players: Array(0..<UInt32(players)), seed: 99, at: F.t0)
            var dealt: [String] = game.players.map { game.words[$0]!.item.word }
            var t = 1.0
            while !game.isEnded {
                let effects = F.finishRound(&game, at: F.at(t))
                #expect(effects.contains(.roundFinished(round: game.round)))
                if game.isEnded { break }
                let next = game.round + 1
                #expect(game.apply(.nextRound(at: F.at(t + 1))) == [.roundDealt(round: next)])
                dealt += game.players.map { game.words[$0]!.item.word }
                t += 2
            }
            #expect(game.phase == .ended(.poolEmpty))
            #expect(Set(dealt).count == dealt.count)
            #expect(F.germanPool.items.count - dealt.count < players)
            #expect(game.rounds.count == dealt.count / players)
        }
    }

    @Test func playerLeavingHandsTheirLettersToTheOthersWhoCanStillFinish() throws {
        for seed in UInt64(0)..<300 {
            var game = WordPostGame(pool: try BuiltInPools.german(), players: [0, 1, 2, 3], seed: seed, at: F.t0)
            F.fillOne(&game, player: 1, at: F.at(1))
            let leaverHand = game.hands[2]!.map(\.id)
            let effects = game.apply(.playerLeft(2, at: F.at(2)))
            guard case let .redistributed(from, handovers, withdrawn) = try #require(effects.first) else {
                Issue.record("no redistribution"); return
            }
            #expect(from == 2)
            #expect(Set(handovers.map(\.letter) + withdrawn).isSuperset(of: leaverHand))
            #expect(handovers.allSatisfy { [0, 1, 3].contains($0.to) })
            #expect(game.players == [0, 1, 3] && game.words[2] == nil && game.hands[2] == nil)
            #expect(F.missing(game) == F.held(game), "seed \(seed)")
            let rest = F.finishRound(&game, at: F.at(3))
            #expect(rest.last == .roundFinished(round: 1))
            #expect(game.rounds.last!.results.map(\.player) == [0, 1, 3])
        }
    }

    @Test func theLastUnfinishedPlayerLeavingEndsTheRoundAndEveryoneLeavingEndsTheGame() throws {
        var game = WordPostGame(pool: F.germanPool, players: [0, 1], seed: 8, at: F.t0)
        while F.fillOne(&game, player: 0, at: F.at(1)) != nil {}
        #expect(game.words[0]!.isFinished)
        let effects = game.apply(.playerLeft(1, at: F.at(2)))
        #expect(effects.contains(.roundFinished(round: 1)))
        #expect(game.phase == .roundFinished(round: 1))
        #expect(game.apply(.playerLeft(0, at: F.at(3))).last == .gameEnded(.allLeft))
        #expect(game.phase == .ended(.allLeft))
        #expect(game.departed == [1, 0])
    }

    @Test func hostEndingRecordsTheUnfinishedRound() throws {
        var game = WordPostGame(pool: F.germanPool, players: [0, 1], seed: 8, at: F.t0)
        F.fillOne(&game, player: 0, at: F.at(1))
        #expect(game.apply(.endGame(at: F.at(4))) == [.gameEnded(.hostEnded)])
        let summary = try #require(game.rounds.last)
        #expect(summary.results.allSatisfy { !$0.finished && $0.milliseconds == 4000 })
        #expect(game.apply(.endGame(at: F.at(5))) == [])
        #expect(game.apply(.place(letter: 1, by: 0, slot: 0, at: F.at(5))) == [])
    }

    @Test func aPoolTooSmallForEveryoneEndsAtOnce() {
        let pool = WordPool(id: "s", name: "s", language: "de", items: [WordItem(word: "Bär", hint: "Tier")])
        let game = WordPostGame(pool: pool, players: [0, 1], seed: 1, at: F.t0)
        #expect(game.phase == .ended(.poolEmpty))
    }

    @Test func stateSurvivesJSONAndActionsToo() throws {
        var game = WordPostGame(pool: F.germanPool, players: [0, 1], seed: 21, at: F.t0)
        F.fillOne(&game, player: 1, at: F.at(1))
        let decoded = try JSONDecoder().decode(WordPostGame.self, from: JSONEncoder().encode(game))
        #expect(decoded == game)
        let action = WordPostAction.place(letter: 4, by: 1, slot: 2, at: F.at(3))
        #expect(try JSONDecoder().decode(WordPostAction.self, from: JSONEncoder().encode(action)) == action)
    }
}
