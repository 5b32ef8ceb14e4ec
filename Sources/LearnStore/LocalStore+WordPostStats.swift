import Foundation
import LearnModel
import GRDB

extension LocalStore {
    /// Records a round for the named players (signed-in pupils or ones who
    /// typed a name); players without a name are not recorded. One row per
    /// pupil, in one transaction; a player with a school account in
    /// `accounts` also gets an outbox row, filed under that account on the
    /// server. The others' rows stay on this laptop (`unfiledResults`).
    /// Returns the rows written.
    @discardableResult
    public func recordRound(_ summary: WordPostRoundSummary, gameID: UUID, names: [PlayerID: String],
                            accounts: [PlayerID: UUID] = [:]) throws -> [WordPostRoundStat] {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            var written: [WordPostRoundStat] = []
            for result in summary.results {
                guard let name = names[result.player], !name.isEmpty else { continue }
                let stat = WordPostRoundStat(
                    id: ids.next(), gameID: gameID, round: summary.round, playerName: name, word: result.word,
                    finished: result.finished, milliseconds: result.milliseconds, lettersSent: result.lettersSent,
                    lettersReceived: result.lettersReceived, wrongPlacements: result.wrongPlacements,
                    playedAt: StoreTime.date(StoreTime.milliseconds(summary.endedAt)),
                    playerID: accounts[result.player])
                try db.execute(sql: """
                    INSERT INTO wordPostRoundStat (id, gameId, round, playerName, word, finished, durationMs,
                        lettersSent, lettersReceived, wrongPlacements, playedAt, filed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [stat.id.storeKey, gameID.storeKey, stat.round, name, stat.word, stat.finished,
                                     stat.milliseconds, stat.lettersSent, stat.lettersReceived, stat.wrongPlacements,
                                     StoreTime.milliseconds(stat.playedAt), stat.playerID != nil])
                if stat.playerID != nil {
                    try insertOutbox(.wordPostRoundStat, entityId: stat.id.storeKey,
                                     payload: JSONEncoder().encode(stat), at: now, db)
                }
                written.append(stat)
            }
            return written
        }
    }

    /// Results kept on this laptop only because their player's name matched
    /// no school account: how many, under which names (sorted).
    public func unfiledResults() throws -> (count: Int, names: [String]) {
        try writer.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wordPostRoundStat WHERE NOT filed") ?? 0
            let names = try String.fetchAll(db, sql: """
                SELECT DISTINCT playerName FROM wordPostRoundStat WHERE NOT filed ORDER BY playerName
                """)
            return (count, names)
        }
    }

    /// Every recorded round of the pupil, oldest first.
    public func stats(forPlayer name: String) throws -> WordPostPlayerRecord {
        try writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM wordPostRoundStat WHERE playerName = ? ORDER BY playedAt, id",
                                        arguments: [name])
            return WordPostPlayerRecord(playerName: name, rounds: try rows.map { row in
                guard let id = UUID(text: row["id"]), let game = UUID(text: row["gameId"]) else {
                    throw StoreError.corrupt(path: path ?? ":memory:")
                }
                return WordPostRoundStat(
                    id: id, gameID: game, round: row["round"], playerName: row["playerName"], word: row["word"],
                    finished: row["finished"], milliseconds: row["durationMs"], lettersSent: row["lettersSent"],
                    lettersReceived: row["lettersReceived"], wrongPlacements: row["wrongPlacements"],
                    playedAt: StoreTime.date(row["playedAt"]))
            })
        }
    }

    /// Everyone with a recorded round, by name: the teacher's list.
    public func wordPostPlayers() throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT playerName FROM wordPostRoundStat ORDER BY playerName")
        }
    }

    /// Words any of these pupils has finished: `WordPostGame`'s
    /// `previouslyFinished`, so the group meets new words first.
    public func finishedWords(forPlayers names: [String]) throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        return try writer.read { db in
            let marks = Array(repeating: "?", count: names.count).joined(separator: ",")
            return Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT word FROM wordPostRoundStat WHERE finished AND playerName IN (\(marks))
                """, arguments: StatementArguments(names)))
        }
    }
}
