import Foundation
import GRDB
import LearnModel

extension LocalStore {
    /// Forgets what an erasure names: the sketches that went with the
    /// pupil (their ops with them), their word lists, their grades and the
    /// grades' history, their game results and their profile, and whatever of these waits
    /// in the outbox (the server would refuse it now). Team sketches are
    /// not named and stay. Ids are matched as stored, in lower case.
    static func forget(_ erasure: AccountErasure, _ db: Database) throws {
        func lower(_ ids: [String]) -> [String] { ids.map { $0.lowercased() } }
        let sketches = lower(erasure.sketches), grades = lower(erasure.grades), results = lower(erasure.results)
        let account = erasure.account.lowercased()
        try delete(sketches, "DELETE FROM outbox WHERE entity IN ('sketch', 'sketchOp') AND entityId IN", db)
        try delete(sketches, "DELETE FROM sketchOp WHERE sketchId IN", db)
        try delete(sketches, "DELETE FROM sketch WHERE id IN", db)
        try delete(grades, "DELETE FROM outbox WHERE entity = 'grade' AND entityId IN", db)
        try delete(grades, "DELETE FROM gradeEdit WHERE gradeId IN", db)
        try delete(grades, "DELETE FROM grade WHERE id IN", db)
        try delete(results, "DELETE FROM outbox WHERE entity = 'wordPostRoundStat' AND entityId IN", db)
        try delete(results, "DELETE FROM wordPostRoundStat WHERE id IN", db)
        try delete(erasure.pools, "DELETE FROM outbox WHERE entity IN ('pool', 'poolAssignment') AND entityId IN", db)
        try delete(erasure.pools, "DELETE FROM poolAssignment WHERE poolId IN", db)
        try delete(erasure.pools, "DELETE FROM poolItem WHERE poolId IN", db)
        try delete(erasure.pools, "DELETE FROM pool WHERE builtIn = 0 AND id IN", db)
        try db.execute(sql: """
            DELETE FROM outbox WHERE entity = 'assignmentAnswer'
              AND entityId IN (SELECT id FROM assignmentAnswer WHERE pupilId = ?)
            """, arguments: [account])
        try db.execute(sql: "DELETE FROM assignmentAnswer WHERE pupilId = ?", arguments: [account])
        try db.execute(sql: "DELETE FROM outbox WHERE entity = 'profile' AND entityId = ?", arguments: [account])
        try db.execute(sql: "DELETE FROM profile WHERE accountId = ?", arguments: [account])
    }

    /// `prefix` ends in `IN`; run for the ids in batches SQLite's limit on
    /// bound values allows.
    private static func delete(_ ids: [String], _ prefix: String, _ db: Database) throws {
        var start = 0
        while start < ids.count {
            let batch = Array(ids[start..<min(start + 500, ids.count)])
            let marks = Array(repeating: "?", count: batch.count).joined(separator: ", ")
            try db.execute(sql: "\(prefix) (\(marks))", arguments: StatementArguments(batch))
            start += batch.count
        }
    }
}
