import Foundation
import LearnModel

public enum WordPostFixture {
    public static let t0 = Date(timeIntervalSince1970: 1_718_000_000)

    public static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// German words with umlauts, ß and a combining mark, long and short.
    public static let germanPool = WordPool(id: "test.de", name: "Test", language: "de", items: [
        WordItem(word: "Bär", hint: "Tier mit Honig"),
        WordItem(word: "Käse", hint: "Gelb mit Löchern"),
        WordItem(word: "Fuß", hint: "Am Bein"),
        WordItem(word: "Straße", hint: "Für Autos"),
        WordItem(word: "Schmetterling", hint: "Bunte Flügel"),
        WordItem(word: "Cafe\u{301}", hint: "Kaffee trinken"),
        WordItem(word: "Mädchen", hint: "Kein Junge"),
        WordItem(word: "Schlüssel", hint: "Für die Tür"),
        WordItem(word: "Sommer", hint: "Heiß"),
        WordItem(word: "Gießkanne", hint: "Blumen gießen"),
        WordItem(word: "Ei", hint: "Vom Huhn"),
        WordItem(word: "Anna", hint: "Ein Name"),
    ])

    /// Every grapheme missing from the remaining words, and every tile held,
    /// as multisets.
    public static func missing(_ game: WordPostGame) -> [String: Int] {
        var m: [String: Int] = [:]
        for p in game.players { for g in game.words[p]?.missingGraphemes ?? [] { m[g, default: 0] += 1 } }
        return m
    }

    public static func held(_ game: WordPostGame) -> [String: Int] {
        var m: [String: Int] = [:]
        for p in game.players { for t in game.hands[p] ?? [] { m[t.grapheme, default: 0] += 1 } }
        return m
    }

    /// Fills one open slot of `player`'s word, fetching the tile from a
    /// teammate if needed. Returns the effects, or nil if nothing was open.
    @discardableResult
    public static func fillOne(_ game: inout WordPostGame, player: PlayerID, at date: Date) -> [WordPostEffect]? {
        guard let word = game.words[player], let slot = word.openSlots.first else { return nil }
        let grapheme = word.slots[slot].grapheme
        var effects: [WordPostEffect] = []
        if !(game.hands[player] ?? []).contains(where: { $0.grapheme == grapheme }) {
            guard let giver = game.players.first(where: { p in (game.hands[p] ?? []).contains { $0.grapheme == grapheme } }),
                  let tile = game.hands[giver]?.first(where: { $0.grapheme == grapheme })
            else { return nil }
            effects += game.apply(.send(letter: tile.id, from: giver, to: player))
        }
        guard let tile = game.hands[player]?.first(where: { $0.grapheme == grapheme }) else { return nil }
        return effects + game.apply(.place(letter: tile.id, by: player, slot: slot, at: date))
    }

    /// Plays the round to the end, player by player.
    public static func finishRound(_ game: inout WordPostGame, at date: Date) -> [WordPostEffect] {
        var effects: [WordPostEffect] = []
        for player in game.players {
            while let e = fillOne(&game, player: player, at: date) { effects += e }
        }
        return effects
    }
}

extension WordPostFixture {
    /// A school-sized pool: `words` distinct playable words, each with a hint
    /// of `hintLength` ASCII characters. 5 000 words with 200-character hints
    /// make a game state of well over 1 MiB as JSON.
    public static func bigPool(words: Int, hintLength: Int = 200, id: String = "test.big") -> WordPool {
        let filler = String(repeating: "x", count: max(0, hintLength - 12))
        let items = (0..<words).map { i in
            WordItem(word: "Wort\(i)", hint: "Hinweis \(i % 1000) " + filler)
        }
        return WordPool(id: id, name: "Groß", language: "de", items: items)
    }
}
