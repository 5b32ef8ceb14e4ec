/// The server's schema, in versions applied in order and recorded in
/// `schemaVersion`. Columns use types both databases share; only bytes
/// differ (BLOB / BYTEA). Times are Unix milliseconds.
enum Migrations {
    struct Migration: Sendable {
        var version: Int64
        var statements: @Sendable (SQLDialect) -> [String]
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
    ]

    /// Brings the database to the newest version. Two servers starting at
    /// once on one PostgreSQL database both try: each step first takes a
    /// lock for the length of its transaction (PostgreSQL's `CREATE TABLE IF
    /// NOT EXISTS` is not safe against a second one at the same moment), and
    /// the second one's insert of the same version then fails, its
    /// transaction rolls back, and it finds the version applied. SQLite runs
    /// one writing transaction at a time anyway.
    static func apply(to db: any ServerDatabase, now: Int64) async throws {
        let lock = lockStatement(db.dialect)
        try await db.transaction(lock + [SQLStatement(
            "CREATE TABLE IF NOT EXISTS schemaVersion (version BIGINT PRIMARY KEY, appliedAt BIGINT NOT NULL)")])
        for migration in all {
            if try await isApplied(migration.version, db) { continue }
            var statements = lock + [SQLStatement("INSERT INTO schemaVersion (version, appliedAt) VALUES (?, ?)",
                                                  [.int(migration.version), .int(now)])]
            statements += migration.statements(db.dialect).map { SQLStatement($0) }
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
