import LearnBasics
/// Which words a round gets: drawn at random but not evenly — weighted by
/// priority, favouring words a player has not seen or not finished yet.
public enum WordDrawing {
    /// How much likelier an unfinished word is than one this group has
    /// already finished.
    public static let unfinishedFactor = 3.0

    /// Relative chance of an item: (priority + 1) × newness (1 for the
    /// oldest item up to 2 for the newest) × `unfinishedFactor` when the
    /// group has not finished the word yet. Priority 0 still gets drawn, just
    /// rarely, so a pool never stalls on low-priority words.
    public static func weight(priority: Int, position: Int, count: Int, finished: Bool) -> Double {
        let clamped = min(max(priority, WordItem.priorityRange.lowerBound), WordItem.priorityRange.upperBound)
        let newness = 1 + Double(position) / Double(max(count - 1, 1))
        return Double(clamped + 1) * newness * (finished ? 1 : unfinishedFactor)
    }

    /// Playable items whose word is not in `used`, one per distinct word
    /// (the newest item wins when a teacher listed a word twice).
    public static func candidates(in pool: WordPool, excluding used: Set<String>) -> [(position: Int, item: WordItem)] {
        var seen: Set<String> = []
        var result: [(position: Int, item: WordItem)] = []
        for (position, item) in pool.items.enumerated().reversed()
        where item.isPlayable && !used.contains(item.word) && seen.insert(item.word).inserted {
            result.append((position, item))
        }
        return result.reversed()
    }

    /// Draws `count` different words without replacement, or nil when the
    /// pool has fewer unused playable words than that.
    public static func draw(_ count: Int, from pool: WordPool, excluding used: Set<String>,
                            finished: Set<String>, using rng: inout SplitMix64) -> [WordItem]? {
        var remaining = candidates(in: pool, excluding: used)
        guard remaining.count >= count else { return nil }
        var weights = remaining.map {
            weight(priority: $0.item.priority, position: $0.position, count: pool.items.count,
                   finished: finished.contains($0.item.word))
        }
        var drawn: [WordItem] = []
        for _ in 0..<count {
            let total = weights.reduce(0, +)
            var target = rng.nextUnit() * total
            // Falls back to the last one if rounding leaves target ≥ total.
            var pick = weights.count - 1
            for (index, w) in weights.enumerated() {
                if target < w { pick = index; break }
                target -= w
            }
            drawn.append(remaining.remove(at: pick).item)
            weights.remove(at: pick)
        }
        return drawn
    }
}
