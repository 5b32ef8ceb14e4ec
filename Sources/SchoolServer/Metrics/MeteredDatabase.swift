import NIOConcurrencyHelpers

/// The server's database, counting the calls under way: how much of the
/// pool (PostgreSQL's connections, SQLite's writer and readers) the
/// server uses, waiting ones included. A figure that stays near the pool's
/// size means requests queue for the database.
final class MeteredDatabase: ServerDatabase {
    let base: any ServerDatabase
    private let running = NIOLockedValueBox(0)

    init(_ base: any ServerDatabase) { self.base = base }

    /// Calls started and not yet answered.
    var inUse: Int { running.withLockedValue { $0 } }

    var dialect: SQLDialect { base.dialect }
    var localFolder: String? { base.localFolder }
    var poolSize: Int { base.poolSize }
    func isDiskFull(_ error: any Error) -> Bool { base.isDiskFull(error) }
    func close() async { await base.close() }

    func query(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await counted { try await base.query(statement) }
    }

    @discardableResult
    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await counted { try await base.transaction(statements) }
    }

    func serialized(_ statements: [SQLStatement]) async throws {
        try await counted { try await base.serialized(statements) }
    }

    private func counted<T>(_ body: () async throws -> T) async throws -> T {
        running.withLockedValue { $0 += 1 }
        defer { running.withLockedValue { $0 -= 1 } }
        return try await body()
    }
}
