import Foundation
import GRDB
import LearnModel

/// Records a teacher's devices make and the school server hands on: grades,
/// class settings, profiles and which class a pool is given to. Each keeps
/// only its latest value. For a grade that is its latest edit
/// (`GradeRecord.supersedes`), however late an older one arrives; for the
/// others the last change in the server's order wins, so a record pulled
/// later replaces one set here earlier.
extension LocalStore {
    /// The teacher's edit comes after the edit they saw, even on a laptop
    /// whose clock is behind the one that made it: its time is moved past
    /// the kept one's, so every device keeps this edit (`supersedes`).
    public func setGrade(id: UUID, _ record: GradeRecord) throws {
        if let problem = record.problem { throw StoreError.invalidRecord(problem) }
        try writer.write { db in
            var record = record
            if let kept = try Self.grade(id: id.storeKey, db), kept.at >= record.at, kept.at < Int64.max {
                record.at = kept.at + 1
            }
            let data = try JSONEncoder().encode(record)
            _ = try Self.upsertGrade(id: id.storeKey, record, data, db)
            try insertOutbox(.grade, entityId: id.storeKey, payload: data, at: StoreTime.milliseconds(clock.now()), db)
        }
    }

    /// The grades of a sketch or game, oldest change first; taken-back
    /// grades are left out.
    public func grades(forTarget target: GradedWorkID) throws -> [GradeRecord] {
        try writer.read { db in
            try Data.fetchAll(db, sql: "SELECT record FROM grade WHERE targetId = ? ORDER BY rowid", arguments: [target.text])
                .compactMap { try? JSONDecoder().decode(GradeRecord.self, from: $0) }
                .filter { !$0.deleted }
        }
    }

    /// Every grade kept here by its id, taken-back ones left out: the
    /// teacher's grade list.
    public func allGrades() throws -> [String: GradeRecord] {
        try writer.read { db in
            var found: [String: GradeRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, record FROM grade") {
                let data: Data = row["record"]
                if let record = try? JSONDecoder().decode(GradeRecord.self, from: data), !record.deleted {
                    found[row["id"]] = record
                }
            }
            return found
        }
    }

    public func setClassSettings(classID: String, _ record: ClassSettingsRecord) throws {
        if let problem = record.problem { throw StoreError.invalidRecord(problem) }
        try writeRecord(.classSettings, id: classID, record) { db, data in
            try db.execute(sql: "INSERT OR REPLACE INTO classSettings (classId, record) VALUES (?, ?)", arguments: [classID, data])
        }
    }

    public func classSettings(classID: String) throws -> ClassSettingsRecord? {
        try record(ClassSettingsRecord.self, sql: "SELECT record FROM classSettings WHERE classId = ?", classID)
    }

    public func setProfile(accountID: String, _ record: ProfileRecord) throws {
        if let problem = record.problem { throw StoreError.invalidRecord(problem) }
        try writeRecord(.profile, id: accountID, record) { db, data in
            try db.execute(sql: "INSERT OR REPLACE INTO profile (accountId, record) VALUES (?, ?)", arguments: [accountID, data])
        }
    }

    public func profile(accountID: String) throws -> ProfileRecord? {
        try record(ProfileRecord.self, sql: "SELECT record FROM profile WHERE accountId = ?", accountID)
    }

    public func setPoolAssignment(poolID: String, _ record: PoolAssignment) throws {
        try writeRecord(.poolAssignment, id: poolID, record) { db, _ in
            try Self.applyAssignment(poolID: poolID, record, db)
        }
    }

    /// The classes a pool is given to.
    public func assignedClasses(poolID: String) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT classId FROM poolAssignment WHERE poolId = ? ORDER BY classId", arguments: [poolID])
        }
    }

    /// The pools given to a class, by id (sorted only to be the same on
    /// every call).
    public func assignedPools(classID: String) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT poolId FROM poolAssignment WHERE classId = ? ORDER BY poolId",
                                arguments: [classID.lowercased()])
        }
    }

    // MARK: shared with pulling

    /// Keeps the edit if it is the latest of its grade (`supersedes`);
    /// false when the kept one is later.
    /// The edit that is not kept goes to the grade's history (`gradeEdit`).
    static func upsertGrade(id: String, _ record: GradeRecord, _ data: Data, _ db: Database) throws -> Bool {
        let kept = try grade(id: id, db)
        if let kept, !record.supersedes(kept) {
            if kept != record { try keepEdit(id: id, record, data, db) }
            return false
        }
        if let kept, kept != record { try keepEdit(id: id, kept, try JSONEncoder().encode(kept), db) }
        try db.execute(sql: """
            INSERT INTO grade (id, targetId, record) VALUES (?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET targetId = excluded.targetId, record = excluded.record
            """, arguments: [id, record.targetId.text, data])
        return true
    }

    private static func keepEdit(id: String, _ record: GradeRecord, _ data: Data, _ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO gradeEdit (gradeId, at, tieBreak, record) VALUES (?, ?, ?, ?)",
                       arguments: [id, record.at, record.tieBreak, data])
    }

    /// The edits that `kept`, a grade's kept edit, replaced, newest first:
    /// what the teacher sees the grade was before.
    public func gradeHistory(replacedBy kept: GradeRecord) throws -> [GradeRecord] {
        try writer.read { db in
            let decoder = JSONDecoder()
            let rows = try Row.fetchAll(db, sql: "SELECT id, record FROM grade WHERE targetId = ?",
                                        arguments: [kept.targetId.text])
            guard let id: String = rows.first(where: { row in
                (try? decoder.decode(GradeRecord.self, from: row["record"] as Data)) == kept
            })?["id"] else { return [] }
            return try Data.fetchAll(db, sql: "SELECT record FROM gradeEdit WHERE gradeId = ?", arguments: [id])
                .compactMap { try? decoder.decode(GradeRecord.self, from: $0) }
                .sorted { $0.supersedes($1) }
        }
    }

    /// The kept edit of a grade; nil for none (or an unreadable one, which
    /// any edit replaces).
    private static func grade(id: String, _ db: Database) throws -> GradeRecord? {
        try Data.fetchOne(db, sql: "SELECT record FROM grade WHERE id = ?", arguments: [id])
            .flatMap { try? JSONDecoder().decode(GradeRecord.self, from: $0) }
    }

    static func applyAssignment(poolID: String, _ record: PoolAssignment, _ db: Database) throws {
        if record.assigned {
            try db.execute(sql: "INSERT OR IGNORE INTO poolAssignment (poolId, classId) VALUES (?, ?)",
                           arguments: [poolID, record.classId.lowercased()])
        } else {
            try db.execute(sql: "DELETE FROM poolAssignment WHERE poolId = ? AND classId = ?",
                           arguments: [poolID, record.classId.lowercased()])
        }
    }

    /// The record's row and its outbox row, in one transaction.
    func writeRecord<T: Encodable>(_ entity: OutboxEntity, id: String, _ record: T,
                                           store: (Database, Data) throws -> Void) throws {
        let data = try JSONEncoder().encode(record)
        try writer.write { db in
            try store(db, data)
            try insertOutbox(entity, entityId: id, payload: data, at: StoreTime.milliseconds(clock.now()), db)
        }
    }

    private func record<T: Decodable>(_ type: T.Type, sql: String, _ key: String) throws -> T? {
        try writer.read { db in
            try Data.fetchOne(db, sql: sql, arguments: [key]).flatMap { try? JSONDecoder().decode(type, from: $0) }
        }
    }
}
