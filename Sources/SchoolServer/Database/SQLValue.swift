import Foundation
import LearnModel

/// A value bound to or read from SQL, in the few types both databases store
/// the same way: times are Unix milliseconds and flags 0/1 in BIGINT
/// columns, ids lowercase UUID text, and bytes BLOB/BYTEA.
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])

    public var int: Int64? { if case .int(let v) = self { v } else { nil } }
    public var text: String? { if case .text(let v) = self { v } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let v) = self { v } else { nil } }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
}

/// One result row, by column name. PostgreSQL folds unquoted names to
/// lower case and SQLite keeps them, so names are compared in lower case.
public struct SQLRow: Sendable, Hashable {
    public private(set) var columns: [String: SQLValue]

    public init(_ columns: [String: SQLValue]) {
        self.columns = Dictionary(columns.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public subscript(_ name: String) -> SQLValue { columns[name.lowercased()] ?? .null }

    /// A column that must hold text; a row without it is a broken database.
    public func text(_ name: String) throws -> String {
        guard let v = self[name].text else { throw DatabaseProblem.unexpectedRow(column: name) }
        return v
    }

    public func int(_ name: String) throws -> Int64 {
        guard let v = self[name].int else { throw DatabaseProblem.unexpectedRow(column: name) }
        return v
    }

    public func uuid(_ name: String) throws -> UUID {
        guard let v = UUID(text: try text(name)) else { throw DatabaseProblem.unexpectedRow(column: name) }
        return v
    }
}

/// What goes wrong below the API: the API answers 503 for these, since the
/// request itself may have been fine.
public enum DatabaseProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case unreachable(String)
    case unexpectedRow(column: String)
    case badURL(String)
    case failed(String)
    /// A newer server already brought the schema past what this one knows.
    case newerSchema(found: Int64, known: Int64)

    public var description: String {
        switch self {
        case .unreachable(let why): "the database does not answer: \(why)"
        case .unexpectedRow(let column): "the database returned a row without a valid \(column)"
        case .badURL(let why): "the database address is not usable: \(why)"
        case .failed(let why): "the database refused a statement: \(why)"
        case .newerSchema(let found, let known):
            "a newer Teamsketch server already used this database (schema \(found); this server knows up to \(known)). "
                + "Nothing was changed: start that version (or a newer one) again, or restore a backup this version made"
        }
    }
}
