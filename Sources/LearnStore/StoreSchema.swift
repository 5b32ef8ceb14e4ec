import GRDB
import LearnModel

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
                t.primaryKey("opId", .text) // rows are read in rowid (commit) order
                t.column("entity", .text).notNull()
                t.column("entityId", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        // Buchstaben Post: word pools and per-pupil round stats.
        migrator.registerMigration("v2") { db in
            try db.create(table: "pool") { t in
                t.primaryKey("id", .text) // "builtin.de" or a lowercase UUID
                t.column("name", .text).notNull()
                t.column("language", .text).notNull()
                // Built-in pools ship with every copy of the app, so they are not synced.
                t.column("builtIn", .boolean).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("modifiedAt", .integer).notNull()
                t.column("deletedAt", .integer) // tombstone, like sketch
            }
            try db.create(table: "poolItem") { t in
                t.column("poolId", .text).notNull().references("pool", onDelete: .cascade)
                // Item order is age (newer words are drawn more often).
                t.column("position", .integer).notNull()
                t.column("word", .text).notNull()
                t.column("hint", .text).notNull()
                t.column("priority", .integer).notNull()
                t.primaryKey(["poolId", "position"])
            }
            try db.create(table: "wordPostRoundStat") { t in
                t.primaryKey("id", .text) // UUIDv7, also the outbox opId
                t.column("gameId", .text).notNull()
                t.column("round", .integer).notNull()
                t.column("playerName", .text).notNull().indexed()
                t.column("word", .text).notNull()
                t.column("finished", .boolean).notNull()
                t.column("durationMs", .integer).notNull()
                t.column("lettersSent", .integer).notNull()
                t.column("lettersReceived", .integer).notNull()
                t.column("wrongPlacements", .integer).notNull()
                t.column("playedAt", .integer).notNull()
            }
        }
        // Sync with the school server: the pull cursor of each
        // server and account, and the records only the server's other
        // devices make (a teacher's grades, a class's settings, profiles,
        // which class a pool is given to). Each holds the latest record.
        migrator.registerMigration("v3") { db in
            try db.create(table: "syncState") { t in
                t.primaryKey("key", .text) // server URL # account id
                t.column("cursor", .integer).notNull()
            }
            try db.create(table: "grade") { t in
                t.primaryKey("id", .text)
                t.column("targetId", .text).notNull().indexed()
                t.column("record", .blob).notNull() // GradeRecord JSON
            }
            try db.create(table: "classSettings") { t in
                t.primaryKey("classId", .text)
                t.column("record", .blob).notNull() // ClassSettingsRecord JSON
            }
            try db.create(table: "profile") { t in
                t.primaryKey("accountId", .text)
                t.column("record", .blob).notNull() // ProfileRecord JSON
            }
            try db.create(table: "poolAssignment") { t in
                t.column("poolId", .text).notNull()
                t.column("classId", .text).notNull()
                t.primaryKey(["poolId", "classId"])
            }
        }
        // A game result whose player this laptop could not match to a
        // school account is kept here only (`filed` false) and is never
        // pushed: filed under a guess, it would be another pupil's record.
        migrator.registerMigration("v4") { db in
            try db.alter(table: "wordPostRoundStat") { t in
                t.add(column: "filed", .boolean).notNull().defaults(to: true)
            }
        }
        // Edits of a grade that a later edit replaced, so the teacher sees
        // what a grade was before. One row per edit (`tieBreak` tells two
        // edits of one millisecond apart); the kept edit stays in `grade`.
        migrator.registerMigration("v5") { db in
            try db.create(table: "gradeEdit") { t in
                t.column("gradeId", .text).notNull()
                t.column("at", .integer).notNull()
                t.column("tieBreak", .text).notNull()
                t.column("record", .blob).notNull()
                t.primaryKey(["gradeId", "at", "tieBreak"])
            }
        }
        // The copy a sketch deleted elsewhere was kept as (see
        // `LocalStore.keepAsCopy`): a stroke that still reaches the
        // deleted original goes to that copy, never to a second one.
        migrator.registerMigration("v6") { db in
            try db.alter(table: "sketch") { t in
                t.add(column: "keptAs", .text)
            }
        }
        // Who started a team sketch (its host's account; nil for a sketch
        // drawn alone, which is whoever pushes it): only they, or a teacher,
        // may throw it away. Sketches stored before count as drawn alone.
        migrator.registerMigration("v7") { db in
            try db.alter(table: "sketch") { t in
                t.add(column: "team", .boolean).notNull().defaults(to: false)
                t.add(column: "creatorId", .text)
            }
        }
        // Tasks teachers set and pupils' answers (`LocalStore+Assignments`):
        // the record as the school server carries it, with what a list
        // needs beside it.
        migrator.registerMigration("v8") { db in
            try db.create(table: "assignment") { t in
                t.primaryKey("id", .text)
                t.column("classId", .text).notNull().indexed()
                t.column("record", .blob).notNull()
            }
            try db.create(table: "assignmentAnswer") { t in
                t.primaryKey("id", .text)
                t.column("assignmentId", .text).notNull().indexed()
                t.column("pupilId", .text).notNull()
                t.column("record", .blob).notNull()
            }
        }
        return migrator
    }
}
