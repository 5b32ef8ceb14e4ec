import Foundation
import LearnModel
import GRDB

extension LocalStore {
    /// Creates or replaces a pool with all its items, in one transaction
    /// with its outbox row. Saving a deleted pool's id brings it back.
    public func savePool(_ pool: WordPool) throws {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            try upsertPool(pool, builtIn: false, now: now, db)
            try insertOutbox(.pool, entityId: pool.id, payload: PoolChange(change: .save, pool: pool, at: now).encoded(),
                             at: now, db)
        }
    }

    /// Pools not deleted: built-in ones first, then by name.
    public func pools() throws -> [WordPool] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM pool WHERE deletedAt IS NULL ORDER BY builtIn DESC, name, id")
                .map { try pool(from: $0, db) }
        }
    }

    public func pool(id: String) throws -> WordPool? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM pool WHERE id = ? AND deletedAt IS NULL", arguments: [id])
                .map { try pool(from: $0, db) }
        }
    }

    /// Marks the pool deleted (a tombstone for sync); its items go at once.
    /// Returns whether there was a live pool with that id.
    @discardableResult
    public func deletePool(id: String) throws -> Bool {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            try db.execute(sql: "UPDATE pool SET deletedAt = ?, modifiedAt = ? WHERE id = ? AND deletedAt IS NULL",
                           arguments: [now, now, id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM poolItem WHERE poolId = ?", arguments: [id])
            try insertOutbox(.pool, entityId: id, payload: PoolChange(change: .delete, at: now).encoded(), at: now, db)
            return true
        }
    }

    /// Stores the built-in pools that have never been stored. One the
    /// teacher deleted stays deleted. No outbox rows: every copy of the app
    /// has them. The app finds and decodes the pool files; this only stores
    /// the ones it is given. Returns the ids inserted.
    @discardableResult
    public func loadBuiltInPoolsIfMissing(_ builtIn: [WordPool]) throws -> [String] {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            var inserted: [String] = []
            for pool in builtIn where try Bool.fetchOne(db, sql: "SELECT 1 FROM pool WHERE id = ?", arguments: [pool.id]) == nil {
                try upsertPool(pool, builtIn: true, now: now, db)
                inserted.append(pool.id)
            }
            return inserted
        }
    }

    func upsertPool(_ pool: WordPool, builtIn: Bool, now: Int64, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO pool (id, name, language, builtIn, createdAt, modifiedAt) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, language = excluded.language,
                modifiedAt = excluded.modifiedAt, deletedAt = NULL
            """, arguments: [pool.id, pool.name, pool.language, builtIn, now, now])
        try db.execute(sql: "DELETE FROM poolItem WHERE poolId = ?", arguments: [pool.id])
        let insert = try db.cachedStatement(sql: """
            INSERT INTO poolItem (poolId, position, word, hint, priority) VALUES (?, ?, ?, ?, ?)
            """)
        for (position, item) in pool.items.enumerated() {
            try insert.execute(arguments: [pool.id, position, item.word, item.hint, item.priority])
        }
    }

    private func pool(from row: Row, _ db: Database) throws -> WordPool {
        let id: String = row["id"]
        let items = try Row.fetchAll(db.cachedStatement(sql: "SELECT word, hint, priority FROM poolItem WHERE poolId = ? ORDER BY position"),
                                     arguments: [id])
            .map { WordItem(word: $0["word"], hint: $0["hint"], priority: $0["priority"]) }
        return WordPool(id: id, name: row["name"], language: row["language"], items: items)
    }
}
