import Foundation

/// The end of a school year: an archived class is kept for as long as the
/// school's admin decided, then erased. Only SQL lives here; the erasing
/// of each pupil is `erasePupil`'s.
extension AccountStore {
    /// The days an archived class is kept; nil when it is kept until its
    /// pupils are removed (the default: nothing is erased unless the
    /// school decided so).
    public func archiveRetentionDays() async throws -> Int? {
        try await db.query("SELECT value FROM schoolPolicy WHERE name = 'archiveDays'").first?["value"].int
            .map { Int(clamping: $0) }
    }

    /// Classes archived at or before this moment are past `days`.
    public static func archivedBefore(days: Int, now: Int64) -> Int64 {
        now - Int64(days) * 86_400_000
    }

    public func setArchiveRetention(days: Int?) async throws {
        if let days {
            try await db.execute("""
                INSERT INTO schoolPolicy (name, value) VALUES ('archiveDays', ?)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, [.int(Int64(days))])
        } else {
            try await db.execute("DELETE FROM schoolPolicy WHERE name = 'archiveDays'")
        }
    }

    /// Classes archived for longer than `days` before `now`, with their
    /// teacher and pupils.
    public func classesPastRetention(days: Int, now: Int64) async throws -> [(id: UUID, teacher: UUID, pupils: [UUID])] {
        let before = Self.archivedBefore(days: days, now: now)
        var out: [(id: UUID, teacher: UUID, pupils: [UUID])] = []
        for row in try await db.query("""
            SELECT id, teacherId FROM schoolClass WHERE archivedAt IS NOT NULL AND archivedAt <= ? ORDER BY archivedAt, id
            """, [.int(before)]) {
            let id = try row.uuid("id")
            let pupils = try await db.query("SELECT id FROM account WHERE role = 'pupil' AND classId = ? ORDER BY id",
                                            [.text(id.key)]).map { try $0.uuid("id") }
            out.append((id, try row.uuid("teacherId"), pupils))
        }
        return out
    }

    /// The class itself, once its pupils are erased: its name, code,
    /// devices, word-list assignments and settings. The erasures of its
    /// pupils stay in the log (ids only, no names): the teacher's laptops
    /// forget the pupils when they pull them. Every statement asks again
    /// that no pupil is in it (one added meanwhile waits for the next
    /// round) and that it is still archived since `before` (a teacher may
    /// restore it meanwhile); false when it stays.
    public func dropClass(_ id: UUID, archivedBefore before: Int64) async throws -> Bool {
        let c = SQLValue.text(id.key)
        let going = """
            EXISTS (SELECT 1 FROM schoolClass WHERE schoolClass.id = ? AND archivedAt IS NOT NULL AND archivedAt <= ?
                    AND NOT EXISTS (SELECT 1 FROM account WHERE account.classId = ?))
            """
        let binds: [SQLValue] = [c, .int(before), c]
        guard try await !db.query("SELECT 1 WHERE \(going)", binds).isEmpty else { return false }
        try await db.serialized([
            SQLStatement("DELETE FROM change WHERE classId = ? AND entity <> 'erasure' AND \(going)", [c] + binds),
            SQLStatement("DELETE FROM poolAssignment WHERE classId = ? AND \(going)", [c] + binds),
            SQLStatement("DELETE FROM assignment WHERE classId = ? AND \(going)", [c] + binds),
            SQLStatement("DELETE FROM classDevice WHERE classId = ? AND \(going)", [c] + binds),
            SQLStatement("DELETE FROM relaySession WHERE classId = ? AND \(going)", [c] + binds),
            SQLStatement("DELETE FROM schoolClass WHERE id = ? AND \(going)", [c] + binds),
        ])
        return true
    }
}
