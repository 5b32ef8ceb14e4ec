import Foundation
import LearnModel

/// The current state of the records the gallery and its reports read —
/// each grade's kept edit, every game round under its player, each
/// account's latest profile — in tables beside the change log. A push
/// updates them in the transaction that stores its changes, and only for a
/// change whose row that push inserted (the statements select from the
/// change row by `opId` and `pushId`), so a retried push never applies a
/// change twice. Reports query these by class, a page at a time, and read
/// every page: nothing is cut at a count.
enum CurrentState {
    /// Rows a report reads per query.
    static let pageSize = 1000

    // MARK: written by a push

    /// The edit becomes the grade's state unless the state holds a later
    /// one: the same rule as `GradeRecord.supersedes`, in SQL (edit time,
    /// then the tie-break, whose lowercase hex orders alike everywhere).
    static func keep(_ record: GradeRecord, id: String, teacher: SQLValue, if inserted: SyncStore.Guard) -> SQLStatement {
        SQLStatement("""
            INSERT INTO gradeState (id, teacherId, target, targetId, pupilId, at, tieBreak, deleted, payload)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, payload FROM change WHERE opId = ? AND pushId = ?
            ON CONFLICT (id) DO UPDATE SET pupilId = excluded.pupilId, at = excluded.at, tieBreak = excluded.tieBreak,
                deleted = excluded.deleted, payload = excluded.payload
            WHERE excluded.at > gradeState.at OR (excluded.at = gradeState.at AND excluded.tieBreak > gradeState.tieBreak)
            """, gradeValues(record, id: id, teacher: teacher) + inserted.binds)
    }

    private static func gradeValues(_ record: GradeRecord, id: String, teacher: SQLValue) -> [SQLValue] {
        // An id's text is the lowercase UUID the other tables key by.
        let pupil = record.pupilId.map { SQLValue.text($0.text) } ?? .null
        return [.text(id), teacher, .text(record.target.rawValue), .text(record.targetId.text), pupil, .int(record.at),
                .text(record.tieBreak), .int(record.deleted ? 1 : 0)]
    }

    /// Rounds go in as multi-row statements (a laptop back from a week
    /// offline pushes hundreds at once), each joined to the change row its
    /// push inserted. The values' columns are `column1`... in both
    /// databases; `playedAt` is cast so a page of rounds without a time
    /// still has a number column on PostgreSQL.
    static func file(_ rounds: [(opId: String, player: String, stat: WordPostRoundStat)], push: SQLValue) -> [SQLStatement] {
        stride(from: 0, to: rounds.count, by: roundsPerStatement).map { start in
            let part = rounds[start..<min(start + roundsPerStatement, rounds.count)]
            let marks = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: part.count).joined(separator: ", ")
            return SQLStatement("""
                INSERT INTO roundResult (opId, seq, playerId, word, finished, milliseconds, lettersSent, lettersReceived,
                                         wrongPlacements, playedAt)
                SELECT change.opId, change.seq, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7,
                       v.column8, CAST(v.column9 AS BIGINT)
                FROM (VALUES \(marks)) v JOIN change ON change.opId = v.column1 AND change.pushId = ?
                WHERE true ON CONFLICT (opId) DO NOTHING
                """, part.flatMap { [.text($0.opId)] + resultValues(RoundResult($0.stat), player: $0.player) } + [push])
        }
    }

    /// 9 values a round: 1,800 binds a statement.
    private static let roundsPerStatement = 200

    private static func resultValues(_ r: RoundResult, player: String) -> [SQLValue] {
        [.text(player), .text(r.word), .int(r.finished ? 1 : 0), .int(Int64(r.milliseconds)), .int(Int64(r.lettersSent)),
         .int(Int64(r.lettersReceived)), .int(Int64(r.wrongPlacements)),
         r.playedAt.map { .int(UnixMilliseconds.milliseconds($0)) } ?? .null]
    }

    /// The newest profile change (in server order) is the profile.
    static func keepProfile(of accountID: String, classID: String?, if inserted: SyncStore.Guard) -> SQLStatement {
        SQLStatement("""
            INSERT INTO profileState (accountId, classId, seq, payload)
            SELECT ?, ?, seq, payload FROM change WHERE opId = ? AND pushId = ?
            ON CONFLICT (accountId) DO UPDATE SET classId = excluded.classId, seq = excluded.seq, payload = excluded.payload
            WHERE excluded.seq > profileState.seq
            """, [.text(accountID), classID.map { .text($0) } ?? .null] + inserted.binds)
    }

    // MARK: filled from the log (a database from before these tables)

    /// Statements that fill the tables from the change log as the rules
    /// would have: a grade's kept edit, each readable round under the
    /// account it is filed under, each account's newest profile.
    @Sendable static func fill(_ db: any ServerDatabase) async throws -> [SQLStatement] {
        var grades: [String: (record: GradeRecord, teacher: String)] = [:]
        var results: [(opId: String, seq: Int64, player: String, result: RoundResult)] = []
        var profiles: [String: (seq: Int64, classID: String?)] = [:]
        let decoder = JSONDecoder()
        var cursor: Int64 = 0
        while true {
            let rows = try await db.query("""
                SELECT change.seq, change.opId, change.entity, change.entityId, change.payload, change.authorId,
                       change.subjectId, change.classId FROM change
                WHERE change.entity IN ('grade', 'wordPostRoundStat', 'profile') AND change.seq > ?
                ORDER BY change.seq LIMIT ?
                """, [.int(cursor), .int(Int64(pageSize))])
            for row in rows {
                let seq = try row.int("seq"), payload = Data(try row.text("payload").utf8)
                let author = try row.text("authorId")
                switch try row.text("entity") {
                case "grade":
                    guard let record = try? decoder.decode(GradeRecord.self, from: payload) else { break }
                    let id = try row.text("entityId").lowercased()
                    if grades[id].map({ record.supersedes($0.record) }) ?? true {
                        grades[id] = (record, grades[id]?.teacher ?? author)
                    }
                case "wordPostRoundStat":
                    guard let result = try? decoder.decode(RoundResult.self, from: payload) else { break }
                    results.append((try row.text("opId"), seq, row["subjectId"].text ?? author, result))
                case _:
                    profiles[try row.text("entityId").lowercased()] = (seq, row["classId"].text)
                }
            }
            guard rows.count == pageSize, let last = rows.last else { break }
            cursor = try last.int("seq")
        }
        var statements: [SQLStatement] = []
        for (id, kept) in grades.sorted(by: { $0.key < $1.key }) {
            statements.append(SQLStatement("""
                INSERT INTO gradeState (id, teacherId, target, targetId, pupilId, at, tieBreak, deleted, payload)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, gradeValues(kept.record, id: id, teacher: .text(kept.teacher))
                    + [.text(String(decoding: try JSONEncoder().encode(kept.record), as: UTF8.self))]))
        }
        for r in results {
            statements.append(SQLStatement("""
                INSERT INTO roundResult (opId, seq, playerId, word, finished, milliseconds, lettersSent, lettersReceived,
                                         wrongPlacements, playedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(r.opId), .int(r.seq)] + resultValues(r.result, player: r.player)))
        }
        for (account, newest) in profiles.sorted(by: { $0.key < $1.key }) {
            statements.append(SQLStatement("""
                INSERT INTO profileState (accountId, classId, seq, payload)
                SELECT ?, ?, seq, payload FROM change WHERE seq = ?
                """, [.text(account), newest.classID.map { .text($0) } ?? .null, .int(newest.seq)]))
        }
        return statements
    }
}

// MARK: read by the reports

extension SyncStore {
    /// The kept edit of every grade of the class's pupils, and of the team
    /// grades of sketches they drew in, by grade id; taken-back grades left
    /// out.
    public func grades(ofClass classID: UUID) async throws -> [(id: String, grade: GradeRecord)] {
        let decoder = JSONDecoder()
        var out: [(id: String, grade: GradeRecord)] = []
        var after = ""
        while true {
            let rows = try await db.query("""
                SELECT id, payload FROM gradeState WHERE deleted = 0 AND id > ? AND \(Self.gradeOfClass)
                ORDER BY id LIMIT ?
                """, [.text(after), .text(classID.key), .text(classID.key), .int(Int64(CurrentState.pageSize))])
            for row in rows {
                if let grade = try? decoder.decode(GradeRecord.self, from: Data(try row.text("payload").utf8)) {
                    out.append((try row.text("id"), grade))
                }
            }
            guard rows.count == CurrentState.pageSize, let last = rows.last else { return out }
            after = try last.text("id")
        }
    }

    /// The kept grades a pupil may read, newest first: their own, and their
    /// teams' on sketches they drew in; taken-back ones left out. At most
    /// `limit` (a school year's grades of one pupil are far fewer).
    public func grades(of pupil: UUID, limit: Int = 500) async throws -> [GradeRecord] {
        let decoder = JSONDecoder()
        return try await db.query("""
            SELECT payload FROM gradeState WHERE deleted = 0
              AND (pupilId = ? OR (pupilId IS NULL AND targetId IN (SELECT sketchId FROM sketchAuthor WHERE accountId = ?)))
            ORDER BY at DESC, id LIMIT ?
            """, [.text(pupil.key), .text(pupil.key), .int(Int64(limit))])
            .compactMap { try? decoder.decode(GradeRecord.self, from: Data(try $0.text("payload").utf8)) }
    }

    /// Every edit the log holds of these grades, by grade id, in the order
    /// they arrived (through the log's index by entity id, a page of ids at
    /// a time).
    public func gradeEdits(of ids: [String]) async throws -> [String: [GradeRecord]] {
        let decoder = JSONDecoder()
        var out: [String: [GradeRecord]] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let part = Array(ids[start..<min(start + 500, ids.count)])
            let marks = SQLStatement.placeholders(part.count)
            for row in try await db.query("""
                SELECT entityId, payload FROM change WHERE entity = 'grade' AND entityId IN (\(marks)) ORDER BY seq
                """, part.map { .text($0) }) {
                if let grade = try? decoder.decode(GradeRecord.self, from: Data(try row.text("payload").utf8)) {
                    out[try row.text("entityId"), default: []].append(grade)
                }
            }
        }
        return out
    }

    /// "This `gradeState` row is about the class (two binds: its id twice)":
    /// a grade of one of its pupils, or a team's grade on a sketch one of
    /// them drew in.
    private static let gradeOfClass = """
        (gradeState.pupilId IN (SELECT id FROM account WHERE classId = ?)
         OR (gradeState.pupilId IS NULL AND gradeState.targetId IN (SELECT sketchAuthor.sketchId FROM sketchAuthor
             JOIN account ON account.id = sketchAuthor.accountId WHERE account.classId = ?)))
        """

    /// Every round played by the class's pupils (or by one pupil), in the
    /// order the server received them.
    public func results(ofClass classID: UUID) async throws -> [(pupil: UUID, result: RoundResult)] {
        try await results("playerId IN (SELECT id FROM account WHERE classId = ?)", [.text(classID.key)])
    }

    public func results(of pupil: UUID) async throws -> [RoundResult] {
        try await results("playerId = ?", [.text(pupil.key)]).map(\.result)
    }

    /// One pupil's rounds, if they are in the class.
    public func results(ofClass classID: UUID, player pupil: UUID) async throws -> [RoundResult] {
        try await results("playerId = ? AND playerId IN (SELECT id FROM account WHERE classId = ?)",
                          [.text(pupil.key), .text(classID.key)]).map(\.result)
    }

    private func results(_ condition: String, _ binds: [SQLValue]) async throws -> [(pupil: UUID, result: RoundResult)] {
        var out: [(pupil: UUID, result: RoundResult)] = []
        var after: Int64 = 0
        while true {
            let rows = try await db.query("""
                SELECT seq, playerId, word, finished, milliseconds, lettersSent, lettersReceived, wrongPlacements, playedAt
                FROM roundResult WHERE \(condition) AND seq > ? ORDER BY seq LIMIT ?
                """, binds + [.int(after), .int(Int64(CurrentState.pageSize))])
            for row in rows {
                out.append((try row.uuid("playerId"), try RoundResult(row)))
            }
            guard rows.count == CurrentState.pageSize, let last = rows.last else { return out }
            after = try last.int("seq")
        }
    }

    /// One account's latest profile, if the account may see it (as
    /// `profiles(visibleTo:)`).
    public func profile(of id: UUID, visibleTo account: Account) async throws -> ProfileRecord? {
        let scope = Scope(account)
        let row = try await db.query("""
            SELECT payload FROM profileState
            WHERE accountId = ? AND (accountId IN (\(scope.people.sql)) OR classId IN (\(scope.classes.sql)))
            """, [.text(id.key)] + scope.people.binds + scope.classes.binds).first
        return try row.flatMap { try? JSONDecoder().decode(ProfileRecord.self, from: Data(try $0.text("payload").utf8)) }
    }

    /// The latest profile of each account the account may see: their own,
    /// their classmates', a teacher's pupils'.
    public func profiles(visibleTo account: Account) async throws -> [(account: UUID, profile: ProfileRecord)] {
        let scope = Scope(account)
        let rows = try await db.query("""
            SELECT accountId, payload FROM profileState
            WHERE accountId IN (\(scope.people.sql)) OR classId IN (\(scope.classes.sql))
            """, scope.people.binds + scope.classes.binds)
        return try rows.compactMap { row in
            guard let profile = try? JSONDecoder().decode(ProfileRecord.self, from: Data(try row.text("payload").utf8)) else {
                return nil
            }
            return (try row.uuid("accountId"), profile)
        }
    }
}
