/// The server's storage, on SQLite or PostgreSQL. Every query is written
/// once (`SQLStatement`) and runs on both; a change that spans several
/// statements is one `transaction`, all of it or none.
///
/// Statements are handed over as a list rather than run from a closure:
/// GRDB's transactions are synchronous and PostgreSQL's asynchronous, and a
/// list is what both can run atomically. Where a step depends on an earlier
/// one, the SQL says so (`INSERT … ON CONFLICT`, `UPDATE … WHERE`).
public protocol ServerDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// One statement on its own (its own transaction).
    func query(_ statement: SQLStatement) async throws -> [SQLRow]
    /// The statements in order in one transaction; each one's rows.
    @discardableResult
    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]]
    /// The statements in order in one transaction that takes turns with
    /// every other `serialized` one, so the change rows it adds get their
    /// `seq` in the order they commit (a device that pulled a later change
    /// never misses an earlier one that committed after). Rows are not
    /// returned.
    func serialized(_ statements: [SQLStatement]) async throws
    func close() async
    /// The folder holding the database's files when they are on this
    /// machine (SQLite), to watch its free space; nil for PostgreSQL.
    var localFolder: String? { get }
    /// The error says the disk is full (nothing is wrong but the room).
    func isDiskFull(_ error: any Error) -> Bool
    /// How many calls the database serves at once (PostgreSQL: the pool's
    /// connections; SQLite: its writer and readers): calls beyond it wait.
    var poolSize: Int { get }
}

extension ServerDatabase {
    /// A database in front of another (a test's) tells nothing of its own.
    public var poolSize: Int { 1 }

    /// Runs a statement for its effect; returns the rows of its `RETURNING`.
    @discardableResult
    public func execute(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        try await query(SQLStatement(sql, binds))
    }

    public func query(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        try await query(SQLStatement(sql, binds))
    }
}
