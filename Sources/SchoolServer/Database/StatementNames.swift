import Foundation
import PostgresNIO
import Synchronization

/// The names under which PostgreSQL keeps statements parsed and planned on
/// each pooled connection. A statement sent without a name is parsed and
/// planned every time: under a school's load, planning took as long as
/// the work itself (0.27 ms to plan the token lookup, 0.12 ms to run it),
/// on a machine the server shares with its database.
///
/// A statement's text varies with the length of an `IN (…)` list or of a
/// multi-row insert, so naming is bounded: statements of at most
/// `maxBinds` values, and at most `capacity` names in all. Any other
/// statement goes unnamed, as before. A connection keeps each name it has
/// used as long as it lives.
///
/// The same text with values of other types is another name: PostgreSQL
/// fixes a parameter's type when it prepares the statement.
final class StatementNames: Sendable {
    let capacity: Int
    let maxBinds: Int
    private let state = Mutex(State())

    private struct State: Sendable {
        var names: [Key: String] = [:]
        var issued = 0
    }

    private struct Key: Hashable, Sendable {
        var sql: String
        var types: String
    }

    init(capacity: Int = 256, maxBinds: Int = 64) {
        self.capacity = capacity
        self.maxBinds = maxBinds
    }

    /// The statement's name, or nil to send it unnamed.
    func name(for statement: SQLStatement) -> String? {
        guard statement.binds.count <= maxBinds, Self.isPreparable(statement.sql) else { return nil }
        let key = Key(sql: statement.sql, types: Self.types(statement.binds))
        return state.withLock { state in
            if let name = state.names[key] { return name }
            guard state.issued < capacity else { return nil }
            state.issued += 1
            let name = "teamsketch_\(state.issued)"
            state.names[key] = name
            return name
        }
    }

    /// The next use of the statement prepares it again under a new name.
    /// PostgresNIO remembers, per connection, a name whose preparation
    /// failed and fails every later use of it; and a prepared `SELECT *`
    /// fails for good once its table gains a column. Names given up on
    /// still count towards `capacity`, which keeps this bounded.
    func forget(_ statement: SQLStatement) {
        let key = Key(sql: statement.sql, types: Self.types(statement.binds))
        _ = state.withLock { $0.names.removeValue(forKey: key) }
    }

    /// The error may have come from preparing the statement, not from its
    /// values: the SQL or the schema it names (class 42), a plan that no
    /// longer fits its tables (0A), a name unknown to the connection (26),
    /// or a transaction already failed (25). Such a statement did nothing.
    static func isPreparationError(_ error: any Error) -> Bool {
        let failed = (error as? PostgresTransactionError)?.closureError ?? error
        guard let state = (failed as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return ["42", "0A", "26", "25"].contains(String(state.prefix(2)))
    }

    /// Only what PostgreSQL can prepare: schema changes go unnamed.
    private static func isPreparable(_ sql: String) -> Bool {
        let start = sql.drop { $0 == " " || $0 == "\n" }.prefix(6).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(start) || start.hasPrefix("WITH")
    }

    private static func types(_ binds: [SQLValue]) -> String {
        String(binds.map { value -> Character in
            switch value {
            case .null: "n"
            case .int: "i"
            case .double: "d"
            case .text: "t"
            case .bytes: "b"
            }
        })
    }
}

/// A statement PostgresNIO runs under a name. It takes a statement's name
/// and text from its type, where ours are values: they are read from the
/// task, on which PostgresNIO reads them before handing the statement to
/// the connection.
struct NamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow
    @TaskLocal static var current = (name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    var bindings: PostgresBindings
    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
