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
