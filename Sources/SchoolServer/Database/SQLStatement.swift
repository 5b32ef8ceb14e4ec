/// One SQL statement with `?` placeholders, written once for both
/// databases; the PostgreSQL driver numbers the placeholders (`$1`, `$2` …).
/// Values are always bound, never spliced into the text.
public struct SQLStatement: Sendable, Hashable {
    public var sql: String
    public var binds: [SQLValue]

    public init(_ sql: String, _ binds: [SQLValue] = []) {
        self.sql = sql
        self.binds = binds
    }

    /// PostgreSQL only: `first` (an INSERT, UPDATE or DELETE) as a WITH
    /// clause of `main`, one statement and one round trip. Both run on one
    /// snapshot, so neither may read what the other writes nor touch the
    /// same rows; `main` has no WITH of its own.
    public init(with first: SQLStatement, then main: SQLStatement) {
        self.init("WITH earlier AS (\(first.sql))\n\(main.sql)", first.binds + main.binds)
    }

    /// "?, ?, ?": the placeholders of an `IN (…)` list of `count` values.
    public static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The text with PostgreSQL's numbered placeholders. A `?` inside a
    /// quoted literal or identifier stays as it is.
    public var numberedSQL: String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var n = 0
        var quote: Character?
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                out.append(c)
            } else if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        return out
    }
}

/// Where the two databases' SQL differs (column types in migrations, locks).
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgresql
}
