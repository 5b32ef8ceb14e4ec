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
        /// How often each statement's name was given up.
        var failures: [Key: Int] = [:]
    }

    /// A statement whose name was given up this often stays unnamed: an
    /// error that keeps coming back (a permission, a database that went
    /// read-only) would otherwise use up every name.
    static let failuresBeforeUnnamed = 2

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
        guard mayName(statement) else { return nil }
        let key = Key(sql: statement.sql, types: Self.types(statement.binds))
        return state.withLock { state in
            if let name = state.names[key] { return name }
            guard state.issued < capacity, state.failures[key, default: 0] < Self.failuresBeforeUnnamed else { return nil }
            state.issued += 1
            let name = "teamsketch_\(state.issued)"
            state.names[key] = name
            return name
        }
    }

    /// The next use of the statement prepares it again under a new name.
    /// PostgresNIO remembers, per connection, a name whose preparation
    /// failed (a syntax error, but also a lock or statement timeout while
    /// another server migrates) and fails every later use of it; and a
    /// prepared `SELECT *` fails for good once its table gains a column.
    /// Only `name` is given up: a new name another call was just given
    /// stays. Names given up still count towards `capacity`.
    func forget(_ statement: SQLStatement, named name: String) {
        let key = Key(sql: statement.sql, types: Self.types(statement.binds))
        state.withLock { state in
            guard state.names[key] == name else { return }
            state.names[key] = nil
            state.failures[key, default: 0] += 1
        }
    }

    /// A named statement's error gives up its name unless the error can
    /// only have come from the values it ran with (a constraint, bad data):
    /// anything else may have failed its preparation.
    static func givesUpName(_ error: any Error) -> Bool {
        guard let state = PostgresDatabase.sqlState(error) else { return false }
        return !["22", "23"].contains(String(state.prefix(2)))
    }

    /// The error may have come from preparing the statement, not from its
    /// values: the SQL or the schema it names (class 42), a plan that no
    /// longer fits its tables (0A), a name unknown to the connection (26),
    /// or a transaction already failed (25). Such a statement did nothing.
    static func isPreparationError(_ error: any Error) -> Bool {
        guard let state = PostgresDatabase.sqlState(error) else { return false }
        return ["42", "0A", "26", "25"].contains(String(state.prefix(2)))
    }

    /// Whether the statement could have a name: the error of a batch with
    /// none is not a name's to retry.
    func mayName(_ statement: SQLStatement) -> Bool {
        statement.binds.count <= maxBinds && Self.isPreparable(statement.sql)
    }

    /// Only what the app runs again and again: a schema change runs once.
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
    // An empty name is the protocol's unnamed statement: read outside the
    // task's value it would run these values against whatever ran last.
    static var name: String {
        precondition(!current.name.isEmpty, "a statement's name read outside its task")
        return current.name
    }
    static var sql: String { current.sql }

    var bindings: PostgresBindings
    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
