import LearnBasics
/// Hiding letters and spreading them over the players, so a word is finished only with teammates' help.
public enum WordPostDealer {
    /// Letters hidden in a word of `length` graphemes: about a third, so the
    /// longer the word the more letters; at least one, never all.
    public static func hiddenCount(length: Int) -> Int {
        guard length >= 2 else { return length > 0 ? 1 : 0 }
        return min(length - 1, max(1, (length + 2) / 3))
    }

    /// Positions to hide. Letters and digits are hidden rather than hyphens
    /// or apostrophes; a word of only such marks hides any of them.
    public static func hiddenPositions(in graphemes: [String], using rng: inout SplitMix64) -> Set<Int> {
        var candidates = graphemes.indices.filter { WordGraphemes.isHideable(graphemes[$0]) }
        if candidates.isEmpty { candidates = Array(graphemes.indices) }
        let count = min(hiddenCount(length: graphemes.count), candidates.count, max(graphemes.count - 1, 1))
        shuffle(&candidates, using: &rng)
        return Set(candidates.prefix(count))
    }

    /// The strict majority of players that should need a teammate's letter.
    public static func neededHelpTarget(players: Int) -> Int {
        players <= 1 ? 0 : players / 2 + 1
    }

    /// How many deals are tried before taking the best: coinciding letters
    /// (two words both missing an "e") can make the target unreachable.
    static let dealAttempts = 24

    /// Spreads the hidden graphemes over the players' hands (seating order).
    /// Round-robin from a random start keeps hands about equal, so everyone
    /// has something to send; shuffling first makes most players depend on
    /// a teammate, and the deal is retried until a strict majority does.
    public static func spread(missing: [PlayerID: [String]], players: [PlayerID],
                              using rng: inout SplitMix64) -> [PlayerID: [String]] {
        var tiles = players.flatMap { missing[$0] ?? [] }
        guard players.count > 1 else { return players.first.map { [$0: tiles] } ?? [:] }
        let target = neededHelpTarget(players: players.count)
        var best: [PlayerID: [String]] = [:]
        var bestScore = -1
        for _ in 0..<dealAttempts {
            shuffle(&tiles, using: &rng)
            let start = rng.nextInt(below: players.count)
            var hands: [PlayerID: [String]] = Dictionary(uniqueKeysWithValues: players.map { ($0, []) })
            for (index, tile) in tiles.enumerated() {
                hands[players[(start + index) % players.count]]!.append(tile)
            }
            let score = players.count { needsTeammate(missing: missing[$0] ?? [], hand: hands[$0] ?? []) }
            if score > bestScore { best = hands; bestScore = score }
            if score >= target { break }
        }
        return best
    }

    /// Whether the hand lacks some grapheme the word still misses.
    public static func needsTeammate(missing: [String], hand: [String]) -> Bool {
        var available: [String: Int] = [:]
        for g in hand { available[g, default: 0] += 1 }
        for g in missing {
            guard let n = available[g], n > 0 else { return true }
            available[g] = n - 1
        }
        return false
    }

    /// Fisher–Yates on our own generator, so a seed deals the same on every
    /// Swift version (`shuffle(using:)` promises no algorithm).
    static func shuffle<T>(_ array: inout [T], using rng: inout SplitMix64) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, rng.nextInt(below: i + 1))
        }
    }
}
