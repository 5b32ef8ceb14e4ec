import LearnWordPost
/// The messages that bring a member to the host's game: `gameBegin`, the
/// pool in `poolItems` pieces, the actions so far in `actions` pieces. Each
/// piece stays under `WordPostWireLimits.chunkBudget`, so no frame comes near
/// the 1 MiB cap whatever the pool; a pool or a log beyond the limits is an
/// error here, never a frame that nobody can read.
public struct WordPostSnapshot: Sendable {
    /// The pool's pieces do not change during a game: built once, sent to
    /// every member.
    public let poolMessages: [WordPostActivity.Message]
    public let pool: WordPool
    /// The words flagged as finished before: only the pool's, since no other
    /// word can be drawn.
    public let finishedBefore: Set<String>

    public init(pool: WordPool, finishedBefore: Set<String>) throws(WordPoolLimitProblem) {
        try WordPoolLimits.check(pool)
        self.pool = pool
        let words = Set(pool.items.map(\.word))
        self.finishedBefore = finishedBefore.intersection(words)
        var pieces: [WordPostActivity.Message] = []
        var piece: [WordPostPoolItem] = []
        var bytes = 0
        for item in pool.items {
            let entry = WordPostPoolItem(item, finishedBefore: self.finishedBefore.contains(item.word))
            if bytes + entry.encodedSize > WordPostWireLimits.chunkBudget, !piece.isEmpty {
                pieces.append(.poolItems(piece))
                piece = []
                bytes = 0
            }
            piece.append(entry)
            bytes += entry.encodedSize
        }
        if !piece.isEmpty { pieces.append(.poolItems(piece)) }
        poolMessages = pieces
    }

    /// Everything a member needs for the game after `log` (whose last change is `seq`).
    public func messages(log: [WordPostAction], seq: UInt64) throws(WordPostLogTooLong) -> [WordPostActivity.Message] {
        guard log.count <= WordPostWireLimits.maxLogActions else { throw WordPostLogTooLong() }
        var out: [WordPostActivity.Message] = [
            .gameBegin(WordPostGameBegin(seq: seq, poolID: pool.id, poolName: pool.name, language: pool.language,
                                         itemCount: pool.items.count, actionCount: log.count)),
        ]
        out += poolMessages
        // The largest action (a start with 16 players) is under 200 bytes.
        let perPiece = WordPostWireLimits.chunkBudget / 200
        var i = 0
        while i < log.count {
            let end = min(i + perPiece, log.count)
            out.append(.actions(Array(log[i..<end])))
            i = end
        }
        return out
    }
}

/// The game took more actions than a snapshot may carry.
public struct WordPostLogTooLong: Error, Hashable, Sendable {}
