/// The server's schema, in versions applied in order and recorded in
/// `schemaVersion`. Columns use types both databases share; only bytes
/// differ (BLOB / BYTEA). Times are Unix milliseconds.
enum Migrations {
    struct Migration: Sendable {
        var version: Int64
        var statements: @Sendable (SQLDialect) -> [String]
        /// Changes to rows that take Swift to work out (reading JSON the
        /// way the server reads it), run in the same transaction.
        var data: (@Sendable (any ServerDatabase) async throws -> [SQLStatement])?

        init(version: Int64, statements: @escaping @Sendable (SQLDialect) -> [String],
             data: (@Sendable (any ServerDatabase) async throws -> [SQLStatement])? = nil) {
            self.version = version; self.statements = statements; self.data = data
        }
    }

    static let all: [Migration] = [
        Migration(version: 1) { _ in
            [
                // Teachers and pupils. A teacher's name is unique among
                // teachers, a pupil's within their class, ignoring case
                // (`nameKey`), so sign-in by name finds one account.
                """
                CREATE TABLE account (
                    id TEXT PRIMARY KEY,
                    role TEXT NOT NULL CHECK (role IN ('teacher', 'pupil')),
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL,
                    passwordHash TEXT,
                    classId TEXT,
                    createdAt BIGINT NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX accountTeacherName ON account (nameKey) WHERE role = 'teacher'",
                "CREATE UNIQUE INDEX accountPupilName ON account (classId, nameKey) WHERE role = 'pupil'",
                """
                CREATE TABLE schoolClass (
                    id TEXT PRIMARY KEY,
                    teacherId TEXT NOT NULL REFERENCES account (id),
                    name TEXT NOT NULL,
                    createdAt BIGINT NOT NULL
                )
                """,
                "CREATE INDEX schoolClassTeacher ON schoolClass (teacherId)",
                // Bearer tokens, stored as their SHA-256 so a copy of the
                // database signs nobody in.
                """
                CREATE TABLE token (
                    hash TEXT PRIMARY KEY,
                    accountId TEXT NOT NULL REFERENCES account (id),
                    createdAt BIGINT NOT NULL,
                    expiresAt BIGINT NOT NULL,
                    revokedAt BIGINT
                )
                """,
                "CREATE INDEX tokenAccount ON token (accountId)",
                // Failed sign-ins, counted per account and per address over
                // a window; in the database so every server process counts
                // the same.
                """
                CREATE TABLE signInFailure (
                    id TEXT PRIMARY KEY,
                    accountKey TEXT NOT NULL,
                    address TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX signInFailureAccount ON signInFailure (accountKey, at)",
                "CREATE INDEX signInFailureAddress ON signInFailure (address, at)",
            ]
        },
        // Sync: every change a device pushed, in server order, and
        // what the API needs to decide who may see and write what.
        Migration(version: 2) { dialect in
            let serial = dialect == .postgresql ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
            let bytes = dialect == .postgresql ? "BYTEA" : "BLOB"
            return [
                // `seq` is the server's order and the pull cursor. The
                // columns after `receivedAt` say who may see the change
                // besides its author: the co-authors of `sketchId`, the
                // class `classId`, the account `subjectId` (and, for each
                // of them, their teacher).
                """
                CREATE TABLE change (
                    seq \(serial),
                    opId TEXT NOT NULL UNIQUE,
                    entity TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    createdAt BIGINT NOT NULL,
                    authorId TEXT NOT NULL,
                    receivedAt BIGINT NOT NULL,
                    sketchId TEXT,
                    classId TEXT,
                    subjectId TEXT
                )
                """,
                "CREATE INDEX changeAuthor ON change (authorId, seq)",
                "CREATE INDEX changeSketch ON change (sketchId, seq)",
                "CREATE INDEX changeClass ON change (classId, seq)",
                "CREATE INDEX changeSubject ON change (subjectId, seq)",
                "CREATE INDEX changeEntity ON change (entityId, seq)",
                // A sketch as its latest changes left it, for listing and
                // rendering. `described` is 0 while only ops have arrived
                // (a member's ops can come before the host's creation).
                """
                CREATE TABLE sketch (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    width DOUBLE PRECISION NOT NULL,
                    height DOUBLE PRECISION NOT NULL,
                    described BIGINT NOT NULL,
                    createdAt BIGINT NOT NULL,
                    modifiedAt BIGINT NOT NULL,
                    deletedAt BIGINT,
                    opCount BIGINT NOT NULL,
                    thumbnail \(bytes),
                    thumbnailOpCount BIGINT
                )
                """,
                """
                CREATE TABLE sketchAuthor (
                    sketchId TEXT NOT NULL,
                    accountId TEXT NOT NULL,
                    PRIMARY KEY (sketchId, accountId)
                )
                """,
                "CREATE INDEX sketchAuthorAccount ON sketchAuthor (accountId)",
                // Who made a pool or a grade: only they (or, for a pupil's
                // pool, their teacher) may change it.
                "CREATE TABLE poolOwner (poolId TEXT PRIMARY KEY, accountId TEXT NOT NULL)",
                "CREATE TABLE poolAssignment (poolId TEXT NOT NULL, classId TEXT NOT NULL, PRIMARY KEY (poolId, classId))",
                "CREATE INDEX poolAssignmentClass ON poolAssignment (classId)",
                "CREATE TABLE gradeOwner (gradeId TEXT PRIMARY KEY, accountId TEXT NOT NULL)",
            ]
        },
        // Archived classes: when the teacher put the class away,
        // NULL while it is in use. Nothing else of the class changes, so
        // restoring it brings back everything as it was.
        Migration(version: 3) { _ in
            ["ALTER TABLE schoolClass ADD COLUMN archivedAt BIGINT"]
        },
        // The relay's listing: every server process behind one
        // address lists and routes the same sessions. A row is kept after
        // its session ended, so its id stays its host's (another account
        // can never take it over). `ownerAddress` is where the process
        // holding the host's control socket is reached; `registration`
        // tells that socket's registration from a later one of the same
        // host, so only the newest one heartbeats and ends the row.
        Migration(version: 4) { _ in
            [
                """
                CREATE TABLE relaySession (
                    id TEXT PRIMARY KEY,
                    classId TEXT NOT NULL,
                    name TEXT NOT NULL,
                    activity TEXT NOT NULL,
                    hostId TEXT NOT NULL,
                    hostName TEXT NOT NULL,
                    ownerAddress TEXT NOT NULL,
                    registration TEXT NOT NULL,
                    registeredAt BIGINT NOT NULL,
                    heartbeatAt BIGINT NOT NULL,
                    endedAt BIGINT
                )
                """,
                "CREATE INDEX relaySessionClass ON relaySession (classId, heartbeatAt)",
                "CREATE INDEX relaySessionHost ON relaySession (hostId, heartbeatAt)",
            ]
        },
        // What an op id was stored with, so the same id pushed with other
        // content is told apart from a retry (`payloadHash`, the payload's
        // SHA-256; NULL for changes stored before), and which push stored
        // a change, so only that push applies its effects (`pushId`).
        Migration(version: 5) { _ in
            [
                "ALTER TABLE change ADD COLUMN payloadHash TEXT",
                "ALTER TABLE change ADD COLUMN pushId TEXT",
            ]
        },
        // Results of team games were filed under the laptop that hosted the
        // game: each goes to the classmate of that pupil whose name it
        // carries (`TeamResultRefiling`).
        Migration(version: 6, statements: { _ in [] }, data: TeamResultRefiling.statements),
        // A relayed session is listed under a random id its host makes; its
        // LAN id is kept beside it for join screens (`lanSessionId`).
        Migration(version: 7) { _ in ["ALTER TABLE relaySession ADD COLUMN lanSessionId TEXT"] },
        // The current state of grades, game rounds and profiles, kept by
        // every push beside the log (`CurrentState`) so reports query a
        // class's rows instead of reading the log, and filled from the log
        // here. A grade's `tieBreak` compares byte by byte on PostgreSQL
        // too, whatever the database's collation.
        Migration(version: 8, statements: { dialect in
            let bytewise = dialect == .postgresql ? " COLLATE \"C\"" : ""
            return [
                """
                CREATE TABLE gradeState (
                    id TEXT PRIMARY KEY,
                    teacherId TEXT NOT NULL,
                    target TEXT NOT NULL,
                    targetId TEXT NOT NULL,
                    pupilId TEXT,
                    at BIGINT NOT NULL,
                    tieBreak TEXT\(bytewise) NOT NULL,
                    deleted BIGINT NOT NULL,
                    payload TEXT NOT NULL
                )
                """,
                "CREATE INDEX gradeStatePupil ON gradeState (pupilId)",
                "CREATE INDEX gradeStateTarget ON gradeState (targetId)",
                """
                CREATE TABLE roundResult (
                    opId TEXT PRIMARY KEY,
                    seq BIGINT NOT NULL,
                    playerId TEXT NOT NULL,
                    word TEXT NOT NULL,
                    finished BIGINT NOT NULL,
                    milliseconds BIGINT NOT NULL,
                    lettersSent BIGINT NOT NULL,
                    lettersReceived BIGINT NOT NULL,
                    wrongPlacements BIGINT NOT NULL,
                    playedAt BIGINT
                )
                """,
                "CREATE INDEX roundResultPlayer ON roundResult (playerId, seq)",
                """
                CREATE TABLE profileState (
                    accountId TEXT PRIMARY KEY,
                    classId TEXT,
                    seq BIGINT NOT NULL,
                    payload TEXT NOT NULL
                )
                """,
                "CREATE INDEX profileStateClass ON profileState (classId)",
            ]
        }, data: CurrentState.fill),
        // Who started each sketch, and whether it was drawn in a LAN
        // session (its host's members may join it). A sketch stored before
        // is taken as started by whoever pushed its first change, and as a
        // team's when more than one pupil had drawn in it (a teacher who
        // renamed it made no team). A member named
        // later gets what was stored before as copies only they pull
        // (`copyFor`), each pointing at the change it repeats (`copyOf`);
        // `renameOpId` is the rename that gave a sketch its name.
        Migration(version: 9) { _ in
            [
                "ALTER TABLE sketch ADD COLUMN creatorId TEXT",
                "ALTER TABLE sketch ADD COLUMN team BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE sketch ADD COLUMN renameOpId TEXT",
                "ALTER TABLE change ADD COLUMN copyOf BIGINT",
                "ALTER TABLE change ADD COLUMN copyFor TEXT",
                "CREATE INDEX changeCopyFor ON change (copyFor, seq)",
                """
                UPDATE sketch SET
                    creatorId = (SELECT authorId FROM change WHERE change.sketchId = sketch.id ORDER BY seq LIMIT 1),
                    team = CASE WHEN (SELECT COUNT(*) FROM sketchAuthor JOIN account ON account.id = sketchAuthor.accountId
                                      WHERE sketchAuthor.sketchId = sketch.id AND account.role = 'pupil') > 1
                           THEN 1 ELSE 0 END,
                    renameOpId = (SELECT opId FROM change WHERE change.sketchId = sketch.id AND change.entity = 'sketch'
                                  AND change.payload LIKE '%"change":"rename"%' ORDER BY seq DESC LIMIT 1)
                """,
            ]
        },
        // Failed sign-ins are counted in memory (`SignInThrottle`), not
        // written per try; what is kept is where each account signed in
        // from, so a classmate's wrong tries elsewhere never lock it out there.
        Migration(version: 10) { _ in
            [
                "DROP TABLE signInFailure",
                """
                CREATE TABLE signInDevice (
                    accountKey TEXT NOT NULL,
                    address TEXT NOT NULL,
                    lastAt BIGINT NOT NULL,
                    PRIMARY KEY (accountKey, address)
                )
                """,
            ]
        },
        // What each account stored, by day, for its quota (`AccountQuota`):
        // summed from the log once (payload bytes as UTF-8, as a push counts
        // them), then added to by every push. Copies the server made for a
        // member cost the member nothing. A sketch's quota counts against
        // whoever pushed its creation (`startedBy`), not the creator it
        // names: a host may name a classmate.
        Migration(version: 11) { dialect in
            let bytes = dialect == .postgresql ? "octet_length(payload)" : "LENGTH(CAST(payload AS BLOB))"
            return [
                """
                CREATE TABLE accountUsage (
                    accountId TEXT NOT NULL,
                    day BIGINT NOT NULL,
                    bytes BIGINT NOT NULL,
                    changes BIGINT NOT NULL,
                    PRIMARY KEY (accountId, day)
                )
                """,
                """
                INSERT INTO accountUsage (accountId, day, bytes, changes)
                SELECT authorId, receivedAt / 86400000, SUM(\(bytes)), COUNT(*) FROM change
                WHERE copyOf IS NULL AND authorId <> '' GROUP BY authorId, receivedAt / 86400000
                """,
                "ALTER TABLE sketch ADD COLUMN startedBy TEXT",
                "UPDATE sketch SET startedBy = creatorId",
                "CREATE INDEX sketchStarter ON sketch (startedBy)",
            ]
        },
        // The roster is shown only to devices a class has seen (a pupil or
        // its teacher signed in there) or that were given the class's code:
        // every class gets a code, and the devices are remembered by the
        // hash of the mark they send.
        Migration(version: 12, statements: { _ in
            [
                "ALTER TABLE schoolClass ADD COLUMN code TEXT",
                "CREATE UNIQUE INDEX schoolClassCode ON schoolClass (code)",
                """
                CREATE TABLE classDevice (
                    classId TEXT NOT NULL,
                    device TEXT NOT NULL,
                    lastAt BIGINT NOT NULL,
                    signedIn BIGINT NOT NULL DEFAULT 0,
                    PRIMARY KEY (classId, device)
                )
                """,
                "CREATE INDEX classDeviceDevice ON classDevice (device)",
            ]
        }, data: { db in
            try await db.query("SELECT id FROM schoolClass").map { row in
                SQLStatement("UPDATE schoolClass SET code = ? WHERE id = ?", [.text(ClassCode.random().text), .text(try row.text("id"))])
            }
        }),
        // The school's admin, who makes teacher accounts and resets their
        // passwords: the first teacher account, the one made when the
        // server was set up (a flag, so it stays theirs whatever the clock
        // said when two were made at once). Copies found by what they
        // repeat, so erasing a pupil does not read the whole log under
        // the lock every push takes.
        Migration(version: 13) { _ in
            [
                "ALTER TABLE account ADD COLUMN admin BIGINT NOT NULL DEFAULT 0",
                "CREATE INDEX changeCopyOf ON change (copyOf)",
                """
                UPDATE account SET admin = 1
                WHERE id = (SELECT id FROM account WHERE role = 'teacher' ORDER BY createdAt, id LIMIT 1)
                """,
            ]
        },
        // What the school's admin decides for the whole school, by name:
        // `archiveDays`, how long an archived class is kept (none: until
        // its pupils are removed).
        Migration(version: 14) { _ in
            ["CREATE TABLE schoolPolicy (name TEXT PRIMARY KEY, value BIGINT NOT NULL)"]
        },
        // Each class's key for watching its groups (`ClassWatchKey`): its
        // teacher's class wall gets in without a pupil letting it in.
        Migration(version: 15, statements: { _ in
            ["ALTER TABLE schoolClass ADD COLUMN watchKey TEXT"]
        }, data: { db in
            try await db.query("SELECT id FROM schoolClass").map { row in
                SQLStatement("UPDATE schoolClass SET watchKey = ? WHERE id = ?",
                             [.text(ClassWatchKey.random().hex), .text(try row.text("id"))])
            }
        }),
        // PostgreSQL guesses how many changes one sketch holds from a
        // sample. After one big sketch (a class's 10,000 strokes) is
        // pushed, the sample says every sketch is that big, and a pupil's
        // first pull walked the whole log in order looking for the few
        // changes of their own team sketches (100–200 ms each, the slowest
        // requests of a class starting at once) instead of reading them
        // by their sketch's index. Sketches are many and each a small
        // share of the log: say so, one in a hundred changes starts one.
        // The setting counts from the next sample, so one is taken now: a
        // school's log may not change enough for weeks to be sampled again.
        // (PostgreSQL only: SQLite keeps no such sample.)
        Migration(version: 16) { dialect in
            dialect == .postgresql
                ? ["ALTER TABLE change ALTER COLUMN sketchId SET (n_distinct = -0.01)", "ANALYZE change"] : []
        },
        // The tasks teachers set (`AssignmentRecord`): whose class, who set
        // it, for which pupils (a JSON list; NULL for the whole class),
        // whether it was taken back, as its last change says. The rules
        // read it to decide who may change or answer a task; the tasks
        // themselves travel in the log.
        Migration(version: 17) { _ in
            ["""
             CREATE TABLE assignment (id TEXT PRIMARY KEY, classId TEXT NOT NULL, ownerId TEXT NOT NULL, pupils TEXT,
                                      deleted BIGINT NOT NULL DEFAULT 0)
             """,
             "CREATE INDEX assignmentClass ON assignment (classId)"]
        },
    ]

    /// Brings the database to the newest version. Two servers starting at
    /// once on one PostgreSQL database both try: each step first takes a
    /// lock for the length of its transaction (PostgreSQL's `CREATE TABLE IF
    /// NOT EXISTS` is not safe against a second one at the same moment), and
    /// the second one's insert of the same version then fails, its
    /// transaction rolls back, and it finds the version applied. SQLite runs
    /// one writing transaction at a time anyway.
    /// `through`: stop after this version (a test making yesterday's database).
    static func apply(to db: any ServerDatabase, now: Int64, through last: Int64 = .max) async throws {
        let lock = lockStatement(db.dialect)
        try await db.transaction(lock + [SQLStatement(
            "CREATE TABLE IF NOT EXISTS schemaVersion (version BIGINT PRIMARY KEY, appliedAt BIGINT NOT NULL)")])
        // An older server must not write into a schema it does not know
        // (its statements could undo what the newer one moved).
        let found = try await db.query("SELECT MAX(version) AS version FROM schemaVersion").first?["version"].int ?? 0
        guard found <= newestVersion else { throw DatabaseProblem.newerSchema(found: found, known: newestVersion) }
        for migration in all where migration.version <= last {
            if try await isApplied(migration.version, db) { continue }
            var statements = lock + [SQLStatement("INSERT INTO schemaVersion (version, appliedAt) VALUES (?, ?)",
                                                  [.int(migration.version), .int(now)])]
            statements += migration.statements(db.dialect).map { SQLStatement($0) }
            statements += try await migration.data?(db) ?? []
            do {
                try await db.transaction(statements)
            } catch {
                guard try await isApplied(migration.version, db) else { throw error }
            }
        }
    }

    static var newestVersion: Int64 { all.last?.version ?? 0 }

    /// Any fixed number, the same in every server process.
    private static func lockStatement(_ dialect: SQLDialect) -> [SQLStatement] {
        dialect == .postgresql ? [SQLStatement("SELECT pg_advisory_xact_lock(7246001)")] : []
    }

    private static func isApplied(_ version: Int64, _ db: any ServerDatabase) async throws -> Bool {
        try await !db.query("SELECT version FROM schemaVersion WHERE version = ?", [.int(version)]).isEmpty
    }
}
