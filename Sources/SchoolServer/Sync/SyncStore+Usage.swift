import Foundation

/// What each account has stored, day by day (`accountUsage`), for
/// `AccountQuota`. A push adds its own figures in its transaction; the
/// figures are read before the next push is stored.
extension SyncStore {
    /// The account's usage on `day` and in all; the sketches it started
    /// (pushed the creation of) only when `countingSketches` (a push that
    /// starts one), since only then do they matter.
    public func usage(of account: UUID, day: Int64, countingSketches: Bool) async throws -> AccountQuota.Usage {
        var usage = try await usage(where: "accountId = ?", [.text(account.key)], day: day)[account]
            ?? AccountQuota.Usage()
        if countingSketches {
            let row = try await db.query("SELECT COUNT(*) AS n FROM sketch WHERE startedBy = ? AND deletedAt IS NULL",
                                         [.text(account.key)]).first
            usage.sketches = try row?.int("n") ?? 0
        }
        return usage
    }

    /// The usage of every pupil of a class, with their sketches, for the
    /// teacher's list of the class; pupils who stored nothing are missing.
    public func usage(ofPupilsIn classID: UUID, day: Int64) async throws -> [UUID: AccountQuota.Usage] {
        let pupils = "SELECT id FROM account WHERE role = 'pupil' AND classId = ?"
        var usage = try await usage(where: "accountId IN (\(pupils))", [.text(classID.key)], day: day)
        for row in try await db.query("""
            SELECT startedBy, COUNT(*) AS n FROM sketch
            WHERE deletedAt IS NULL AND startedBy IN (\(pupils)) GROUP BY startedBy
            """, [.text(classID.key)]) {
            usage[try row.uuid("startedBy"), default: AccountQuota.Usage()].sketches = try row.int("n")
        }
        return usage
    }

    private func usage(where accounts: String, _ binds: [SQLValue], day: Int64) async throws -> [UUID: AccountQuota.Usage] {
        var usage: [UUID: AccountQuota.Usage] = [:]
        for row in try await db.query("""
            SELECT accountId, CAST(SUM(bytes) AS BIGINT) AS bytes, CAST(SUM(changes) AS BIGINT) AS changes,
                   CAST(SUM(CASE WHEN day = ? THEN bytes ELSE 0 END) AS BIGINT) AS bytesToday,
                   CAST(SUM(CASE WHEN day = ? THEN changes ELSE 0 END) AS BIGINT) AS changesToday
            FROM accountUsage WHERE \(accounts) GROUP BY accountId
            """, [.int(day), .int(day)] + binds) {
            usage[try row.uuid("accountId")] = AccountQuota.Usage(
                bytesToday: try row.int("bytesToday"), changesToday: try row.int("changesToday"),
                bytesInAll: try row.int("bytes"), changesInAll: try row.int("changes"))
        }
        return usage
    }

    /// Adds the copies of a sketch's history this push made for the members
    /// it named to the pusher's day: else naming members would store a big
    /// sketch many times over at nobody's cost. Runs after `recordUsage`,
    /// which made the day's row.
    static func chargeCopies(madeFor members: [String], push: SQLValue, to pusher: UUID, now: Int64) -> SQLStatement {
        let marks = SQLStatement.placeholders(members.count)
        let named = members.map { SQLValue.text($0) }
        return SQLStatement("""
            UPDATE accountUsage SET
                bytes = bytes + (SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM change WHERE copyFor IN (\(marks)) AND pushId = ?),
                changes = changes + (SELECT COUNT(*) FROM change WHERE copyFor IN (\(marks)) AND pushId = ?)
            WHERE accountId = ? AND day = ?
            """, named + [push] + named + [push, .text(pusher.key), .int(AccountQuota.day(of: now))])
    }

    /// Adds what a push stored to its author's day. Counted on what was
    /// decided, so a retry racing its own first push may count twice: the
    /// figures guard the disk, they are no bill.
    /// `afterTurn`: inside `SyncStore.opsAtOnce`, whose `turn` it waits for.
    static func recordUsage(of pusher: UUID, bytes: Int64, changes: Int64, now: Int64,
                            afterTurn: Bool = false) -> SQLStatement {
        SQLStatement("""
            INSERT INTO accountUsage (accountId, day, bytes, changes) \(afterTurn ? "SELECT ?, ?, ?, ? FROM turn WHERE true" : "VALUES (?, ?, ?, ?)")
            ON CONFLICT (accountId, day) DO UPDATE
            SET bytes = accountUsage.bytes + excluded.bytes, changes = accountUsage.changes + excluded.changes
            """, [.text(pusher.key), .int(AccountQuota.day(of: now)), .int(bytes), .int(changes)])
    }
}
