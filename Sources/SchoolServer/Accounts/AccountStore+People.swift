import Foundation
import LearnModel

/// People who change: teacher accounts the school's admin makes, passwords,
/// and pupils renamed, moved to another class or removed for good. Only
/// SQL lives here; who may do it is decided by the API's handlers.
extension AccountStore {
    // MARK: teachers

    /// The school's admin: its first teacher account, the one made when the
    /// server was set up (`admin`). Nil while there is no teacher.
    public func adminID() async throws -> UUID? {
        try await db.query("SELECT id FROM account WHERE role = 'teacher' AND admin = 1 ORDER BY createdAt, id LIMIT 1")
            .first.map { try $0.uuid("id") }
    }

    public struct TeacherRecord: Sendable, Hashable {
        public var id: UUID
        public var name: String
        public var classCount: Int
    }

    /// Every teacher account, by name.
    public func teachers() async throws -> [TeacherRecord] {
        let rows = try await db.query("""
            SELECT id, name, (SELECT COUNT(*) FROM schoolClass WHERE schoolClass.teacherId = account.id) AS classes
            FROM account WHERE role = 'teacher' ORDER BY createdAt, id LIMIT ?
            """, [.int(Int64(Self.maxListed))])
        return try rows.map {
            TeacherRecord(id: try $0.uuid("id"), name: try $0.text("name"), classCount: Int(clamping: try $0.int("classes")))
        }.sorted { ($0.name.lowercased(), $0.id.key) < ($1.name.lowercased(), $1.id.key) }
    }

    /// A teacher and their password hash, by id.
    public func teacher(_ id: UUID) async throws -> (Account, String)? {
        let rows = try await db.query("SELECT id, name, passwordHash FROM account WHERE role = 'teacher' AND id = ?",
                                      [.text(id.key)])
        guard let row = rows.first else { return nil }
        return (Account(id: try row.uuid("id"), role: .teacher, name: try row.text("name")), try row.text("passwordHash"))
    }

    /// Sets a teacher's password and ends their sign-ins, all but `keeping`
    /// (the one that changed its own password goes on).
    public func setTeacherPassword(_ hash: String, teacher: UUID, keeping: BearerToken?, now: Int64) async throws {
        try await db.transaction([
            SQLStatement("UPDATE account SET passwordHash = ? WHERE id = ? AND role = 'teacher'", [.text(hash), .text(teacher.key)]),
            SQLStatement("UPDATE token SET revokedAt = ? WHERE accountId = ? AND revokedAt IS NULL AND hash <> ?",
                         [.int(now), .text(teacher.key), .text(keeping?.hash ?? "")]),
        ])
    }

    // MARK: pupils

    public enum PupilChange: Sendable, Equatable {
        case changed(PupilRecord)
        case nameTaken
        case classFull
        case notFound
    }

    /// Renames a pupil, unless a classmate has that name already (any case).
    public func renamePupil(_ id: UUID, to name: PersonName) async throws -> PupilChange {
        let rows = try await db.execute("""
            UPDATE account SET name = ?, nameKey = ? WHERE id = ? AND role = 'pupil'
              AND NOT EXISTS (SELECT 1 FROM account other WHERE other.role = 'pupil' AND other.classId = account.classId
                              AND other.nameKey = ? AND other.id <> account.id)
            RETURNING id
            """, [.text(name.text), .text(name.key), .text(id.key), .text(name.key)])
        if !rows.isEmpty, let found = try await pupilRecord(id) { return .changed(found) }
        return try await pupil(id) == nil ? .notFound : .nameTaken
    }

    /// Moves a pupil into another class, unless it has a pupil of that name
    /// or is full. Their work stays theirs; their sign-ins end, since a
    /// device keeps the class it signed in for. Their latest profile goes
    /// to the new class again: its devices pulled past it.
    public func movePupil(_ id: UUID, to classID: UUID, now: Int64) async throws -> PupilChange {
        guard let (before, _) = try await pupil(id), let from = before.classID else { return .notFound }
        if from == classID, let same = try await pupilRecord(id) { return .changed(same) }
        let pupil = SQLValue.text(id.key), to = SQLValue.text(classID.key)
        let moved = try await db.transaction([
            SQLStatement("""
                UPDATE account SET classId = ? WHERE id = ? AND role = 'pupil' AND classId = ?
                  AND NOT EXISTS (SELECT 1 FROM account other WHERE other.role = 'pupil' AND other.classId = ?
                                  AND other.nameKey = account.nameKey)
                  AND (SELECT COUNT(*) FROM account other WHERE other.role = 'pupil' AND other.classId = ?) < ?
                RETURNING id
                """, [to, pupil, .text(from.key), to, to, .int(Int64(Self.maxPupilsPerClass))]),
            SQLStatement("""
                UPDATE token SET revokedAt = ? WHERE accountId = ? AND revokedAt IS NULL
                  AND EXISTS (SELECT 1 FROM account WHERE id = ? AND classId = ?)
                """, [.int(now), pupil, pupil, to]),
            SQLStatement("""
                UPDATE profileState SET classId = ? WHERE accountId = ?
                  AND EXISTS (SELECT 1 FROM account WHERE id = ? AND classId = ?)
                """, [to, pupil, pupil, to]),
        ])
        guard moved.first?.isEmpty == false else {
            let count = try await db.query("SELECT COUNT(*) AS n FROM account WHERE role = 'pupil' AND classId = ?", [to])
                .first?.int("n") ?? 0
            return count >= Self.maxPupilsPerClass ? .classFull : .nameTaken
        }
        // In the log's order, like a push: the profile's new copy must not
        // take a `seq` below one a device has already pulled past.
        try await db.serialized([SQLStatement("""
            INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                pushId, sketchId, classId, subjectId)
            SELECT ?, entity, entityId, payload, payloadHash, createdAt, authorId, ?, NULL, NULL, ?, subjectId
            FROM change WHERE entity = 'profile' AND entityId = ? AND copyOf IS NULL ORDER BY seq DESC LIMIT 1
            """, [.text(UUID().key), .int(now), to, pupil])])
        return try await pupilRecord(id).map { .changed($0) } ?? .notFound
    }

    /// What the server holds of a pupil, counted.
    public struct PupilFootprint: Sendable, Hashable {
        public var pupil: PupilRecord
        /// Started alone (or only they drew in them): erased with the pupil.
        public var sketches: Int
        /// Started or shared with classmates who drew too: kept for them.
        public var teamSketches: Int
        public var gameRounds: Int
        public var grades: Int
    }

    public func footprint(of id: UUID) async throws -> PupilFootprint? {
        guard let record = try await pupilRecord(id) else { return nil }
        let pupil = SQLValue.text(id.key)
        let rows = try await db.query("""
            SELECT (SELECT COUNT(*) FROM sketch WHERE \(Self.erasedSketches)) AS own,
                   (SELECT COUNT(*) FROM sketchAuthor WHERE accountId = ?
                      AND sketchId NOT IN (SELECT id FROM sketch WHERE \(Self.erasedSketches))) AS team,
                   (SELECT COUNT(*) FROM roundResult WHERE playerId = ?) AS rounds,
                   (SELECT COUNT(*) FROM gradeState WHERE pupilId = ? AND deleted = 0) AS grades
            """, [pupil, pupil, pupil, pupil, pupil, pupil, pupil])
        guard let row = rows.first else { return nil }
        return PupilFootprint(pupil: record, sketches: Int(clamping: try row.int("own")),
                              teamSketches: Int(clamping: try row.int("team")),
                              gameRounds: Int(clamping: try row.int("rounds")), grades: Int(clamping: try row.int("grades")))
    }

    /// The sketches that go with a pupil (two binds: the pupil, twice):
    /// those they started in which no other pupil drew. A team's sketch
    /// stays with the team whoever hosted it.
    static let erasedSketches = erasedSketches(alongWith: 0)

    /// The same when `count` classmates go too (their ids bound after the
    /// pupil's two): a team's sketch goes with its host when the whole
    /// team goes, else the last of them would not have started it and it
    /// would stay forever.
    static func erasedSketches(alongWith count: Int) -> String {
        let others = count == 0 ? "" : " AND account.id NOT IN (\(SQLStatement.placeholders(count)))"
        return """
            creatorId = ? AND NOT EXISTS (SELECT 1 FROM sketchAuthor JOIN account ON account.id = sketchAuthor.accountId
                WHERE sketchAuthor.sketchId = sketch.id AND account.role = 'pupil' AND account.id <> ?\(others))
            """
    }

    /// A pupil erased because their archived class is (`eraseClassesPastRetention`).
    public struct ClassLeaving: Sendable {
        public var classID: UUID
        /// The class's pupils, all going.
        public var pupils: [UUID]
        /// The class must still be archived since then.
        public var archivedBefore: Int64
    }

    /// Erases a pupil and what is theirs, in the log's order so no push
    /// interleaves: the sketches that go with them (every change, copy,
    /// grade and thumbnail of them), every other change they pushed or that
    /// is about them, their game rounds, grades, profile, sign-ins and
    /// account. Their lines in a team's sketch stay, under an account id
    /// that no longer names anyone (each line keeps the first name its
    /// laptop wrote as its author: the log's ops are never rewritten).
    /// What devices of the class and their teacher must forget goes to
    /// them as an `erasure` change, made by `teacher`. The caller holds
    /// the pupil's push turn (`PushesInFlight`), so what is read here is
    /// what is erased. False when there was no such pupil.
    /// `leaving`: only while the pupil is still in that class and it is
    /// still archived (a teacher may move the pupil or restore the class
    /// while the class's pupils are being erased).
    public func erasePupil(_ id: UUID, by teacher: UUID, now: Int64, leaving: ClassLeaving? = nil) async throws -> Bool {
        guard let (found, _) = try await pupil(id), let classID = found.classID else { return false }
        if let leaving {
            guard classID == leaving.classID, try await !db.query("""
                SELECT 1 FROM schoolClass WHERE id = ? AND archivedAt IS NOT NULL AND archivedAt <= ?
                """, [.text(classID.key), .int(leaving.archivedBefore)]).isEmpty else { return false }
        }
        let p = SQLValue.text(id.key)
        // Signed out first, so no push of theirs starts while the rest is read.
        try await db.execute("DELETE FROM token WHERE accountId = ?", [p])
        let going = (leaving?.pupils ?? []).filter { $0 != id }.map { SQLValue.text($0.key) }
        let chosen = Self.erasedSketches(alongWith: going.count)
        let sketches = "SELECT id FROM sketch WHERE \(chosen)"
        let s = [p, p] + going
        let erasure = AccountErasure(
            account: id.key,
            sketches: try await db.query(sketches, s).map { try $0.text("id") }.sorted(),
            pools: try await db.query("SELECT poolId FROM poolOwner WHERE accountId = ?", [p]).map { try $0.text("poolId") }.sorted(),
            grades: try await db.query("SELECT id FROM gradeState WHERE pupilId = ? OR targetId IN (\(sketches))", [p] + s)
                .map { try $0.text("id") }.sorted(),
            results: try await db.query("""
                SELECT DISTINCT entityId FROM change WHERE entity = 'wordPostRoundStat' AND subjectId = ? AND copyOf IS NULL
                """, [p]).map { try $0.text("entityId") }.sorted())
        let told = SyncChange(opId: UUID(), entity: .erasure, entityId: id.key,
                              payload: String(decoding: try JSONEncoder().encode(erasure), as: UTF8.self), createdAt: now)
        // Which changes go: of their sketches, about them, or theirs, in
        // no sketch and about nobody else (a team sketch keeps its lines,
        // and a classmate keeps the rounds of a game the pupil hosted).
        let doomed = """
            sketchId IN (\(sketches)) OR subjectId = ? OR copyFor = ?
            OR (authorId = ? AND sketchId IS NULL AND subjectId IS NULL) OR (entity = 'profile' AND entityId = ?)
            """
        let doomedBinds: [SQLValue] = s + [p, p, p, p]
        try await db.serialized([
            // Copies first: they point at the changes by `seq`.
            SQLStatement("DELETE FROM change WHERE copyOf IN (SELECT seq FROM change WHERE \(doomed))", doomedBinds),
            SQLStatement("DELETE FROM change WHERE \(doomed)", doomedBinds),
            SQLStatement("""
                DELETE FROM gradeOwner WHERE gradeId IN (SELECT id FROM gradeState WHERE pupilId = ? OR targetId IN (\(sketches)))
                """, [p] + s),
            SQLStatement("DELETE FROM gradeState WHERE pupilId = ? OR targetId IN (\(sketches))", [p] + s),
            SQLStatement("DELETE FROM roundResult WHERE playerId = ?", [p]),
            SQLStatement("DELETE FROM profileState WHERE accountId = ?", [p]),
            SQLStatement("DELETE FROM poolAssignment WHERE poolId IN (SELECT poolId FROM poolOwner WHERE accountId = ?)", [p]),
            SQLStatement("DELETE FROM poolOwner WHERE accountId = ?", [p]),
            // Which sketches go is read from their members, which only the
            // teachers among leave before the sketches do.
            SQLStatement("DELETE FROM sketchAuthor WHERE sketchId IN (\(sketches)) AND accountId <> ?", s + [p]),
            SQLStatement("DELETE FROM sketch WHERE \(chosen)", s),
            SQLStatement("DELETE FROM sketchAuthor WHERE accountId = ?", [p]),
            SQLStatement("DELETE FROM accountUsage WHERE accountId = ?", [p]),
            SQLStatement("DELETE FROM token WHERE accountId = ?", [p]),
            SQLStatement("DELETE FROM signInDevice WHERE accountKey = ?", [.text("pupil:" + id.key)]),
            // A relayed session's row outlives it so its id stays its
            // host's; the host's name goes.
            SQLStatement("UPDATE relaySession SET hostName = '' WHERE hostId = ?", [p]),
            SQLStatement("DELETE FROM account WHERE id = ? AND role = 'pupil'", [p]),
            SQLStatement("""
                INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                    pushId, sketchId, classId, subjectId)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, NULL)
                """, [.text(told.opId.key), .text(told.entity.rawValue), .text(told.entityId), .text(told.payload),
                      .text(told.payloadHash), .int(now), .text(teacher.key), .int(now), .text(classID.key)]),
        ])
        return true
    }

    /// A pupil as their teacher sees them, by id.
    public func pupilRecord(_ id: UUID) async throws -> PupilRecord? {
        try await db.query("SELECT id, name, classId, passwordHash FROM account WHERE role = 'pupil' AND id = ?", [.text(id.key)])
            .first.map {
                PupilRecord(id: try $0.uuid("id"), name: try $0.text("name"), classID: try $0.uuid("classId"),
                            hasPicturePassword: $0["passwordHash"] != .null)
            }
    }
}
