import GRDB

/// The database schema, versioned by GRDB migrations.
///
/// Migrations are append-only: a released migration is never edited, a
/// change is a new migration. The set of applied identifiers is what tells a
/// newer file (unknown identifiers) from one we can open; `user_version` is
/// left alone so the schema version has a single source of truth.
enum StoreSchema {
    /// `PRAGMA application_id` of every Teamsketch database: ASCII "TSKD".
    /// It lets us tell our files from other programs' SQLite files before we
    /// change anything.
    static let applicationID: Int32 = 0x5453_4B44

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "sketch") { t in
                t.primaryKey("id", .text) // lowercase UUID
                t.column("name", .text).notNull().indexed()
                t.column("guides", .text).notNull()
                t.column("timeLimitMinutes", .integer).notNull()
                t.column("width", .double).notNull()
                t.column("height", .double).notNull()
                t.column("createdAt", .integer).notNull() // Unix ms, like every date column
                t.column("modifiedAt", .integer).notNull()
                t.column("thumbnail", .blob)
                t.column("deletedAt", .integer) // tombstone: sync must learn of deletions
            }
            try db.create(table: "sketchOp") { t in
                t.column("sketchId", .text).notNull().references("sketch", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                // The outbox id of the change that made this op; ops pulled
                // from the server carry theirs, so a repeated pull is a no-op.
                t.column("opId", .text).notNull().unique()
                t.column("kind", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["sketchId", "seq"])
            }
            try db.create(table: "outbox") { t in
                t.primaryKey("opId", .text) // UUIDv7: text order is time order
                t.column("entity", .text).notNull()
                t.column("entityId", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        return migrator
    }
}
