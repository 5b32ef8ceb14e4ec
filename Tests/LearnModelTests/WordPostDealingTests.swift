import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing

@Suite struct WordPostDealingTests {
    let seeds: [UInt64] = (0..<600).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 17 }

    @Test func everyMissingLetterIsHeldExactlyOnceAndNoWordIsFullyHiddenOrGiven() throws {
        for pool in [WordPostFixture.germanPool, try BuiltInPools.german(), try BuiltInPools.english()] {
            for (k, seed) in seeds.enumerated() {
                let count = 1 + k % 4
                let game = WordPostGame(pool: pool, players: Array(0..<UInt32(count)), seed: seed, at: WordPostFixture.t0)
                #expect(game.phase == .playing(round: 1))
                #expect(WordPostFixture.missing(game) == WordPostFixture.held(game), "seed \(seed)")
                let ids = game.players.flatMap { game.hands[$0]!.map(\.id) }
                #expect(Set(ids).count == ids.count)
                for p in game.players {
                    let word = try #require(game.words[p])
                    let hidden = word.openSlots.count
                    #expect(hidden >= 1 && hidden < word.slots.count, "\(word.item.word) seed \(seed)")
                    #expect(hidden == min(WordPostDealer.hiddenCount(length: word.slots.count),
                                          word.slots.count - 1))
                    #expect(word.slots.map(\.grapheme).joined() == word.item.word)
                }
                #expect(Set(game.players.map { game.words[$0]!.item.word }).count == count)
            }
        }
    }

    @Test func longerWordsLoseMoreLetters() {
        let counts = (2...13).map { WordPostDealer.hiddenCount(length: $0) }
        #expect(counts == counts.sorted())
        #expect(counts.first == 1 && counts.last! >= 4)
        #expect((2...40).allSatisfy { WordPostDealer.hiddenCount(length: $0) < $0 })
    }

    @Test func soloGameDealsAllLettersToTheOnePlayer() {
        for seed in seeds {
            let game = WordPostGame(pool: WordPostFixture.germanPool, players: [0], seed: seed, at: WordPostFixture.t0)
            let word = game.words[0]!
            #expect(game.hands[0]!.map(\.grapheme).sorted() == word.missingGraphemes.sorted())
            #expect(!WordPostDealer.needsTeammate(missing: word.missingGraphemes, hand: game.hands[0]!.map(\.grapheme)))
        }
    }

    @Test(arguments: [2, 3, 4]) func mostPlayersNeedALetterFromATeammate(players: Int) throws {
        var majority = 0
        var anyone = 0
        let pool = try BuiltInPools.german()
        for seed in seeds {
            let game = WordPostGame(pool: pool, players: Array(0..<UInt32(players)), seed: seed, at: WordPostFixture.t0)
            let needy = game.players.count { p in
                WordPostDealer.needsTeammate(missing: game.words[p]!.missingGraphemes, hand: game.hands[p]!.map(\.grapheme))
            }
            if needy >= WordPostDealer.neededHelpTarget(players: players) { majority += 1 }
            if needy >= 1 { anyone += 1 }
        }
        // Coinciding letters (two words both missing an "e") can make the
        // target impossible, so not every deal reaches it.
        #expect(Double(majority) / Double(seeds.count) >= 0.95, "\(majority)/\(seeds.count)")
        #expect(anyone == seeds.count)
    }

    @Test func theSameSeedDealsTheSameGame() throws {
        let pool = try BuiltInPools.english()
        for seed in seeds.prefix(100) {
            let a = WordPostGame(pool: pool, players: [0, 1, 2], seed: seed, at: WordPostFixture.t0)
            let b = WordPostGame(pool: pool, players: [0, 1, 2], seed: seed, at: WordPostFixture.t0)
            #expect(a == b)
        }
        let a = WordPostGame(pool: pool, players: [0, 1, 2], seed: 1, at: WordPostFixture.t0)
        let b = WordPostGame(pool: pool, players: [0, 1, 2], seed: 2, at: WordPostFixture.t0)
        #expect(a.words != b.words)
    }

    @Test func hyphensAndApostrophesStayVisible() {
        var rng = SplitMix64(seed: 5)
        let graphemes = WordGraphemes.split("T-Shirt's")
        for _ in 0..<200 {
            let hidden = WordPostDealer.hiddenPositions(in: graphemes, using: &rng)
            #expect(!hidden.contains(1) && !hidden.contains(7))
            #expect(hidden.count == WordPostDealer.hiddenCount(length: graphemes.count))
        }
    }
}
