import Foundation
import LearnBasics

/// Buchstaben Post, the team spelling game, as a pure state machine: an action goes in,
/// the state changes and effects come out. No I/O, no clock, no randomness
/// of its own: times arrive with the actions and every deal comes from the
/// seed, so the host can replay a game and tests are exact.
///
/// The host owns the authoritative value; members run the same reducer on
/// the actions the host sends (`WordPostReplica`), so every copy is equal.
///
/// Leaving: the leaver's word is dropped. Tiles anywhere that were only
/// needed for that word are withdrawn (so every hand keeps exactly the
/// letters the remaining words miss), and the leaver's other tiles go
/// round-robin, in seating order after the leaver, to those still playing.
public struct WordPostGame: Hashable, Codable, Sendable {
    public private(set) var pool: WordPool
    public private(set) var phase: WordPostPhase = .notStarted
    public private(set) var seed: UInt64 = 0
    /// Players still in the game, in seating order.
    public private(set) var players: [PlayerID] = []
    public private(set) var departed: [PlayerID] = []
    /// The current round's words by player.
    public private(set) var words: [PlayerID: PlayerWord] = [:]
    /// Tiles each player holds, in the order they arrived.
    public private(set) var hands: [PlayerID: [LetterTile]] = [:]
    /// Totals over the game, also for players who left.
    public private(set) var stats: [PlayerID: WordPostPlayerStats] = [:]
    /// Words dealt in this game: none is dealt twice.
    public private(set) var usedWords: Set<String> = []
    /// Words this group has finished, earlier games included.
    public private(set) var finishedWords: Set<String>
    public private(set) var roundStartedAt: Date?
    /// Every round that ended, oldest first (the stats the store records).
    public private(set) var rounds: [WordPostRoundSummary] = []
    private var nextLetterID: LetterID = 1

    /// A game waiting for `.start`. `previouslyFinished`: the words this
    /// group finished before, which drawing makes less likely.
    public init(pool: WordPool, previouslyFinished: Set<String> = []) {
        self.pool = pool
        finishedWords = previouslyFinished
    }

    /// A started game: round 1 is dealt (or the game has ended at once with
    /// `.poolEmpty` when the pool is too small for everyone).
    public init(pool: WordPool, players: [PlayerID], seed: UInt64, at date: Date,
                previouslyFinished: Set<String> = []) {
        self.init(pool: pool, previouslyFinished: previouslyFinished)
        _ = apply(.start(players: players, seed: seed, at: date))
    }

    public var round: Int {
        switch phase {
        case .notStarted: 0
        case .playing(let r), .roundFinished(let r): r
        case .ended: rounds.last?.round ?? 0
        }
    }

    public var isEnded: Bool { if case .ended = phase { true } else { false } }

    /// The tile with this id and who holds it.
    public func holder(of letter: LetterID) -> (player: PlayerID, tile: LetterTile)? {
        for player in players {
            if let tile = hands[player]?.first(where: { $0.id == letter }) { return (player, tile) }
        }
        return nil
    }

    /// Applies one action. Actions that make no sense now (a stale network
    /// message, an unknown tile) change nothing and return no effects.
    public mutating func apply(_ action: WordPostAction) -> [WordPostEffect] {
        switch action {
        case let .start(players, seed, at): start(players: players, seed: seed, at: at)
        case let .place(letter, player, slot, at): place(letter: letter, by: player, slot: slot, at: at)
        case let .send(letter, from, to): send(letter: letter, from: from, to: to)
        case let .playerLeft(player, at): playerLeft(player, at: at)
        case let .nextRound(at): nextRound(at: at)
        case let .endGame(at): endGame(at: at)
        case let .wrongPlacements(player, count): noteWrongPlacements(player, count: count)
        }
    }

    // MARK: - Actions

    private mutating func start(players newPlayers: [PlayerID], seed: UInt64, at date: Date) -> [WordPostEffect] {
        guard phase == .notStarted else { return [] }
        var seen: Set<PlayerID> = []
        players = newPlayers.filter { seen.insert($0).inserted }
        guard !players.isEmpty else { return [] }
        self.seed = seed
        for player in players { stats[player] = WordPostPlayerStats() }
        return deal(round: 1, at: date)
    }

    private mutating func place(letter: LetterID, by player: PlayerID, slot: Int, at date: Date) -> [WordPostEffect] {
        guard case .playing = phase, var word = words[player], word.slots.indices.contains(slot),
              let index = hands[player]?.firstIndex(where: { $0.id == letter })
        else { return [] }
        let tile = hands[player]![index]
        // A filled slot is a missed drop, not a spelling mistake: no stat.
        guard !word.slots[slot].isFilled else { return [.rejected(letter: letter, player: player, slot: slot)] }
        guard WordGraphemes.matches(tile.grapheme, word.slots[slot].grapheme) else {
            word.wrongPlacements += 1
            words[player] = word
            stats[player, default: .init()].wrongPlacements += 1
            return [.rejected(letter: letter, player: player, slot: slot)]
        }
        hands[player]!.remove(at: index)
        word.slots[slot].placed = letter
        var effects: [WordPostEffect] = [.placed(letter: letter, player: player, slot: slot)]
        if word.isFinished {
            word.finishedAt = date
            finishedWords.insert(word.item.word)
            stats[player, default: .init()].wordsFinished += 1
            effects.append(.wordFinished(player))
        }
        words[player] = word
        return effects + finishRoundIfDone(at: date)
    }

    private mutating func send(letter: LetterID, from: PlayerID, to: PlayerID) -> [WordPostEffect] {
        guard case .playing = phase, from != to, players.contains(to),
              let index = hands[from]?.firstIndex(where: { $0.id == letter })
        else { return [] }
        hands[to, default: []].append(hands[from]!.remove(at: index))
        words[from]?.lettersSent += 1
        words[to]?.lettersReceived += 1
        stats[from, default: .init()].lettersSent += 1
        stats[to, default: .init()].lettersReceived += 1
        return [.sent(letter: letter, from: from, to: to)]
    }

    private mutating func playerLeft(_ player: PlayerID, at date: Date) -> [WordPostEffect] {
        guard let seat = players.firstIndex(of: player), !isEnded else { return [] }
        players.remove(at: seat)
        departed.append(player)
        words[player] = nil
        var leftover = hands.removeValue(forKey: player) ?? []
        guard !players.isEmpty else {
            return [.redistributed(from: player, handovers: [], withdrawn: leftover.map(\.id))]
                + end(.allLeft, at: date)
        }
        let withdrawn = withdrawSurplus(leftover: &leftover)
        var handovers: [LetterHandover] = []
        for (k, tile) in leftover.enumerated() {
            // Seats after the leaver first, as if the tiles were passed on round the table.
            let to = players[(seat + k) % players.count]
            hands[to, default: []].append(tile)
            handovers.append(LetterHandover(letter: tile.id, to: to))
        }
        var effects: [WordPostEffect] = [.redistributed(from: player, handovers: handovers, withdrawn: withdrawn)]
        if case .playing = phase { effects += finishRoundIfDone(at: date) }
        return effects
    }

    private mutating func nextRound(at date: Date) -> [WordPostEffect] {
        guard case .roundFinished(let r) = phase else { return [] }
        return deal(round: r + 1, at: date)
    }

    private mutating func endGame(at date: Date) -> [WordPostEffect] {
        guard !isEnded, phase != .notStarted else { return [] }
        return end(.hostEnded, at: date)
    }

    /// Counters only: the dropper's tile already sprang back when the wrong
    /// drop was answered, so there is nothing to show.
    private mutating func noteWrongPlacements(_ player: PlayerID, count: Int) -> [WordPostEffect] {
        guard case .playing = phase, count > 0, var word = words[player] else { return [] }
        // Saturating: a count comes from the network and must not trap.
        func plus(_ a: Int) -> Int { a > Int.max - count ? Int.max : a + count }
        word.wrongPlacements = plus(word.wrongPlacements)
        words[player] = word
        stats[player, default: .init()].wrongPlacements = plus(stats[player, default: .init()].wrongPlacements)
        return []
    }

    // MARK: - Rules

    /// Each round has its own generator derived from the seed, so the state
    /// holds no generator and a round can be re-dealt from (seed, round).
    static func generator(seed: UInt64, round: Int) -> SplitMix64 {
        SplitMix64(seed: seed ^ (UInt64(round) &* 0xD1B5_4A32_D192_ED03))
    }

    private mutating func deal(round: Int, at date: Date) -> [WordPostEffect] {
        var rng = Self.generator(seed: seed, round: round)
        guard let items = WordDrawing.draw(players.count, from: pool, excluding: usedWords,
                                           finished: finishedWords, using: &rng)
        else { return end(.poolEmpty, at: date) }
        words = [:]
        var missing: [PlayerID: [String]] = [:]
        for (player, item) in zip(players, items) {
            usedWords.insert(item.word)
            let graphemes = WordGraphemes.split(item.word)
            let word = PlayerWord(item: item, hidden: WordPostDealer.hiddenPositions(in: graphemes, using: &rng))
            words[player] = word
            missing[player] = word.missingGraphemes
        }
        let spread = WordPostDealer.spread(missing: missing, players: players, using: &rng)
        hands = [:]
        for player in players {
            hands[player] = (spread[player] ?? []).map { grapheme in
                defer { nextLetterID += 1 }
                return LetterTile(id: nextLetterID, grapheme: grapheme)
            }
        }
        phase = .playing(round: round)
        roundStartedAt = date
        return [.roundDealt(round: round)]
    }

    /// Removes tiles no remaining word can use any more, the leaver's own
    /// tiles first, so each grapheme is held exactly as often as it is
    /// missing. Returns the withdrawn ids.
    private mutating func withdrawSurplus(leftover: inout [LetterTile]) -> [LetterID] {
        var surplus: [String: Int] = [:]
        for tile in leftover { surplus[tile.grapheme, default: 0] += 1 }
        for player in players { for tile in hands[player] ?? [] { surplus[tile.grapheme, default: 0] += 1 } }
        for player in players { for g in words[player]?.missingGraphemes ?? [] { surplus[g, default: 0] -= 1 } }
        var withdrawn: [LetterID] = []
        func take(_ tiles: inout [LetterTile]) {
            tiles.removeAll { tile in
                guard let n = surplus[tile.grapheme], n > 0 else { return false }
                surplus[tile.grapheme] = n - 1
                withdrawn.append(tile.id)
                return true
            }
        }
        take(&leftover)
        for player in players { take(&hands[player, default: []]) }
        return withdrawn
    }

    private mutating func finishRoundIfDone(at date: Date) -> [WordPostEffect] {
        guard case .playing(let r) = phase, players.allSatisfy({ words[$0]?.isFinished ?? true }) else { return [] }
        rounds.append(summary(round: r, endedAt: date))
        phase = .roundFinished(round: r)
        var effects: [WordPostEffect] = [.roundFinished(round: r)]
        // Ending now, not on the next `nextRound`, lets the screen show the
        // round's reward and then the end instead of a round that never comes.
        if WordDrawing.candidates(in: pool, excluding: usedWords).count < players.count {
            phase = .ended(.poolEmpty)
            effects.append(.gameEnded(.poolEmpty))
        }
        return effects
    }

    private mutating func end(_ reason: WordPostEndReason, at date: Date) -> [WordPostEffect] {
        if case .playing(let r) = phase { rounds.append(summary(round: r, endedAt: date)) }
        phase = .ended(reason)
        return [.gameEnded(reason)]
    }

    private func summary(round: Int, endedAt: Date) -> WordPostRoundSummary {
        let start = roundStartedAt ?? endedAt
        let results = players.compactMap { player -> WordPostRoundResult? in
            guard let word = words[player] else { return nil }
            let end = word.finishedAt ?? endedAt
            return WordPostRoundResult(
                player: player, word: word.item.word, finished: word.isFinished,
                milliseconds: Int64((end.timeIntervalSince(start) * 1000).rounded()),
                lettersSent: word.lettersSent, lettersReceived: word.lettersReceived,
                wrongPlacements: word.wrongPlacements)
        }
        return WordPostRoundSummary(round: round, startedAt: start, endedAt: endedAt, results: results)
    }
}
