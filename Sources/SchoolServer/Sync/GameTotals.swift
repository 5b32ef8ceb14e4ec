import Foundation

/// A pupil's Buchstaben Post added up, as the class page shows it.
public struct GameTotals: Sendable, Equatable {
    public var rounds: Int64 = 0
    public var finished: Int64 = 0
    /// Of the finished rounds only.
    public var finishedMilliseconds: Int64 = 0
    public var lettersSent: Int64 = 0
    public var lettersReceived: Int64 = 0
    public var wrongPlacements: Int64 = 0

    /// Each number was capped when the round came in (at most a day, or
    /// 10,000 letters): Int64 sums of them overflow only after some hundred
    /// billion rounds.
    init(_ results: [RoundResult]) {
        for r in results {
            rounds += 1
            if r.finished { finished += 1; finishedMilliseconds += Int64(r.milliseconds) }
            lettersSent += Int64(r.lettersSent)
            lettersReceived += Int64(r.lettersReceived)
            wrongPlacements += Int64(r.wrongPlacements)
        }
    }

    init() {}

    /// Seconds a finished word took on average.
    public var secondsPerWord: Int64 { finished == 0 ? 0 : finishedMilliseconds / finished / 1000 }
}

extension SyncStore {
    /// Every pupil of the class's rounds added up by the database, by
    /// pupil: the class page reads 30 rows, not a year of rounds. Only
    /// rows within the limits a round is read with count.
    public func gameTotals(ofClass classID: UUID) async throws -> [UUID: GameTotals] {
        let ms = RoundResult.maxMilliseconds, n = RoundResult.maxCount
        let rows = try await db.query("""
            SELECT playerId, COUNT(*) AS rounds,
                   CAST(SUM(CASE WHEN finished <> 0 THEN 1 ELSE 0 END) AS BIGINT) AS finished,
                   CAST(SUM(CASE WHEN finished <> 0 THEN milliseconds ELSE 0 END) AS BIGINT) AS finishedMilliseconds,
                   CAST(SUM(lettersSent) AS BIGINT) AS lettersSent,
                   CAST(SUM(lettersReceived) AS BIGINT) AS lettersReceived,
                   CAST(SUM(wrongPlacements) AS BIGINT) AS wrongPlacements
            FROM roundResult
            WHERE playerId IN (SELECT id FROM account WHERE classId = ?)
              AND milliseconds BETWEEN 0 AND \(ms) AND lettersSent BETWEEN 0 AND \(n)
              AND lettersReceived BETWEEN 0 AND \(n) AND wrongPlacements BETWEEN 0 AND \(n)
            GROUP BY playerId
            """, [.text(classID.key)])
        var out: [UUID: GameTotals] = [:]
        for row in rows {
            var totals = GameTotals()
            totals.rounds = try row.int("rounds")
            totals.finished = try row.int("finished")
            totals.finishedMilliseconds = try row.int("finishedMilliseconds")
            totals.lettersSent = try row.int("lettersSent")
            totals.lettersReceived = try row.int("lettersReceived")
            totals.wrongPlacements = try row.int("wrongPlacements")
            out[try row.uuid("playerId")] = totals
        }
        return out
    }
}
