import Foundation
import GRDB
import LearnModel

extension LocalStore {
    /// Sketches deleted within `SketchDeletion.undoDays` of `now`, the
    /// latest deletion first: those a teacher can still bring back.
    public func deletedSketches(now: Date) throws -> [DeletedSketch] {
        let since = StoreTime.milliseconds(now) - SketchDeletion.undoMilliseconds
        return try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, deletedAt FROM sketch WHERE deletedAt IS NOT NULL AND deletedAt >= ?
                ORDER BY deletedAt DESC, id
                """, arguments: [since]).compactMap { row in
                UUID(text: row["id"]).map {
                    DeletedSketch(id: $0, name: row["name"], deletedAt: StoreTime.date(row["deletedAt"]))
                }
            }
        }
    }

    /// Takes a deletion back: the sketch, with every op it had, is listed
    /// again here and, once synced, everywhere (the server refuses it from
    /// anyone but its creator and their teacher, and after the undo window).
    /// Throws `sketchNotFound` for a sketch that is not deleted here.
    public func restoreSketch(_ id: UUID) throws {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            guard try Self.undelete(id, at: now, db) else { throw StoreError.sketchNotFound(id) }
            try insertOutbox(.sketch, entityId: id.storeKey, payload: SketchChange.restore(at: now).encoded(), at: now, db)
        }
    }

    /// The server refused a restore (too late, or not this account's to
    /// take back): the sketch is deleted here again, as it is everywhere
    /// else. Nothing goes to the outbox.
    public func restoreRefused(_ id: UUID) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE sketch SET deletedAt = ? WHERE id = ? AND deletedAt IS NULL",
                           arguments: [StoreTime.milliseconds(clock.now()), id.storeKey])
        }
    }

    /// The server refused a deletion made here (the sketch is not this
    /// account's to throw away, as a team sketch a classmate hosted): it is
    /// back here too, with its lines, as it is everywhere else. Nothing
    /// goes to the outbox.
    public func deleteRefused(_ id: UUID) throws {
        try writer.write { db in _ = try Self.undelete(id, at: StoreTime.milliseconds(clock.now()), db) }
    }

    /// Clears a sketch's deletion; false when it was not deleted.
    static func undelete(_ id: UUID, at now: Int64, _ db: Database) throws -> Bool {
        // Back, it may be deleted again: a copy kept of it then is a new one.
        try db.execute(sql: "UPDATE sketch SET deletedAt = NULL, keptAs = NULL, modifiedAt = ? WHERE id = ? AND deletedAt IS NOT NULL",
                       arguments: [now, id.storeKey])
        return db.changesCount > 0
    }
}
