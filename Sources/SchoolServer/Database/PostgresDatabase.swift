import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The server's storage in PostgreSQL, for a school or a district. The
/// server keeps nothing in memory that this database does not hold, so
/// several server processes can share it behind one address.
public final class PostgresDatabase: ServerDatabase {
    public let dialect = SQLDialect.postgresql
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger
    /// The statements PostgreSQL keeps planned on each connection.
    let names = StatementNames()
    public let poolSize: Int

    public init(configuration: PostgresClient.Configuration, logger: Logger) {
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        poolSize = configuration.options.maximumConnections
        let client = client
        // The client's connection pool lives as long as this value.
        runner = Task { await client.run() }
        self.logger = logger
    }

    public func query(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await againUnderNewNames(of: [statement]) {
            try await run(statement, on: nil)
        }
    }

    public func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await againUnderNewNames(of: statements) {
            try await client.withTransaction(logger: logger) { connection in
                var results: [[SQLRow]] = []
                for statement in statements {
                    results.append(try await run(statement, on: connection))
                }
                return results
            }
        }
    }

    /// Every such transaction first takes one lock, held until it commits.
    public func serialized(_ statements: [SQLStatement]) async throws {
        guard !statements.isEmpty else { return }
        _ = try await transaction([SQLStatement("SELECT pg_advisory_xact_lock(\(Self.pushTurn))")] + statements)
    }

    /// The advisory lock `serialized` transactions take turns on.
    static let pushTurn = 7246002

    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    public var localFolder: String? { nil }

    /// SQLSTATE 53100, disk_full: PostgreSQL's own disk.
    public func isDiskFull(_ error: any Error) -> Bool {
        Self.sqlState(error) == "53100"
    }

    /// PostgreSQL's code for the error, also from inside a transaction.
    static func sqlState(_ error: any Error) -> String? {
        let failed = (error as? PostgresTransactionError)?.closureError ?? error
        return (failed as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// One statement, on the transaction's connection or (nil) on any;
    /// under its name when it has one.
    private func run(_ statement: SQLStatement, on connection: PostgresConnection?) async throws -> [SQLRow] {
        let query = Self.postgresQuery(statement)
        guard let name = names.name(for: statement) else {
            if let connection { return try await Self.collect(connection.query(query, logger: logger)) }
            return try await Self.collect(client.query(query, logger: logger))
        }
        do {
            return try await NamedStatement.$current.withValue((name, query.sql)) {
                let named = NamedStatement(bindings: query.binds)
                if let connection { return try await Self.collect(connection.execute(named, logger: logger)) }
                return try await Self.collect(client.execute(named, logger: logger))
            }
        } catch where StatementNames.givesUpName(error) {
            names.forget(statement, named: name)
            throw error
        }
    }

    /// A statement whose preparation failed did nothing, and the
    /// transaction it was in was rolled back, so once its name is given up
    /// (in `run`) running it all again is safe. Once: an error that comes
    /// back is the statement's own.
    private func againUnderNewNames<Result: Sendable>(of statements: [SQLStatement],
                                                      _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch where StatementNames.isPreparationError(error) && statements.contains(where: names.mayName) {
            return try await body()
        }
    }

    private static func postgresQuery(_ statement: SQLStatement) -> PostgresQuery {
        var binds = PostgresBindings(capacity: statement.binds.count)
        for value in statement.binds {
            switch value {
            case .null: binds.appendNull()
            case .int(let v): binds.append(v)
            case .double(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .bytes(let v): binds.append(ByteBuffer(bytes: v))
            }
        }
        return PostgresQuery(unsafeSQL: statement.numberedSQL, binds: binds)
    }

    private static func collect<Rows: AsyncSequence>(_ rows: Rows) async throws -> [SQLRow]
    where Rows.Element == PostgresRow {
        var out: [SQLRow] = []
        for try await row in rows {
            var columns: [String: SQLValue] = [:]
            for cell in row {
                columns[cell.columnName] = try SQLValue(cell)
            }
            out.append(SQLRow(columns))
        }
        return out
    }
}

extension SQLValue {
    init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else { self = .null; return }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .int(try cell.decode(Int64.self))
        case .float4, .float8: self = .double(try cell.decode(Double.self))
        case .bool: self = .int(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: self = .bytes(Array(buffer: try cell.decode(ByteBuffer.self)))
        default: self = .text(try cell.decode(String.self))
        }
    }
}
