import Foundation
import GRDB

/// The server's storage in one SQLite file (WAL, one writer, many readers),
/// through GRDB like the desktop's store. The default: nothing to set up.
public final class SQLiteDatabase: ServerDatabase {
    public let dialect = SQLDialect.sqlite
    private let pool: DatabasePool
    private let path: String
    public let localFolder: String?
    /// One writer, and readers beside it.
    public var poolSize: Int { 1 + pool.configuration.maximumReaderCount }

    public init(path: String) throws {
        // An in-memory database (tests) has no disk to watch.
        let folder = (path as NSString).deletingLastPathComponent
        self.path = path
        localFolder = path.isEmpty || path == ":memory:" ? nil : folder.isEmpty ? FileManager.default.currentDirectoryPath : folder
        var config = Configuration()
        // Another process (a backup, `create-teacher` while the server runs)
        // may hold the write lock for a moment.
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        pool = try DatabasePool(path: path, configuration: config)
    }

    /// A plain SELECT reads beside the writer (WAL); anything else writes.
    public func query(_ statement: SQLStatement) async throws -> [SQLRow] {
        if statement.sql.prefix(7).uppercased() == "SELECT " {
            return try await pool.read { db in try Self.run(statement, db) }
        }
        return try await pool.write { db in try Self.run(statement, db) }
    }

    public func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await pool.write { db in try statements.map { try Self.run($0, db) } }
    }

    /// SQLite has one writer at a time: every transaction takes turns.
    public func serialized(_ statements: [SQLStatement]) async throws {
        guard !statements.isEmpty else { return }
        _ = try await transaction(statements)
    }

    /// Leaves the database as one file. The pool's readers are read-only
    /// connections, and SQLite folds the log into the file and deletes it
    /// only when the last connection to close may write; one more brief
    /// connection, alone now, does that. (Another process still using the
    /// file keeps its log, as it must.)
    public func close() async {
        try? pool.close()
        guard localFolder != nil, FileManager.default.fileExists(atPath: path) else { return }
        try? DatabaseQueue(path: path).close()
    }

    public func isDiskFull(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_FULL
    }

    private static func run(_ statement: SQLStatement, _ db: Database) throws -> [SQLRow] {
        let arguments = StatementArguments(statement.binds.map(\.databaseValue))
        return try Row.fetchAll(db, sql: statement.sql, arguments: arguments).map { row in
            var columns: [String: SQLValue] = [:]
            for (name, value) in row {
                columns[name] = SQLValue(value)
            }
            return SQLRow(columns)
        }
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let v): v.databaseValue
        case .double(let v): v.databaseValue
        case .text(let v): v.databaseValue
        case .bytes(let v): Data(v).databaseValue
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let v): self = .int(v)
        case .double(let v): self = .double(v)
        case .string(let v): self = .text(v)
        case .blob(let v): self = .bytes([UInt8](v))
        }
    }
}
