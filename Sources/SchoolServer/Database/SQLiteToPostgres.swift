import Foundation

/// A school that outgrew one SQLite file moves to PostgreSQL: every row of
/// every table, copied into a PostgreSQL database that holds no school
/// yet (its schema made by this server, so the two are the same version),
/// then the change log's numbering moved on past the last copied change
/// and each table's rows counted on both sides. The copy keeps every id
/// and every `seq`: the laptops' cursors stay valid, and nothing is sent
/// twice or skipped.
public enum SQLiteToPostgres {
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case sourceNotSQLite, targetNotPostgreSQL
        case targetNotEmpty(table: String)
        case countsDiffer(table: String, source: Int64, target: Int64)

        public var description: String {
            switch self {
            case .sourceNotSQLite: "the database to copy is not a SQLite file"
            case .targetNotPostgreSQL: "the target is not a postgres:// database"
            case .targetNotEmpty(let table):
                "the PostgreSQL database already holds data (table \(table)); give an empty database"
            case .countsDiffer(let table, let source, let target):
                "table \(table) has \(source) rows in SQLite but \(target) in PostgreSQL after the copy"
            }
        }
    }

    /// Rows per INSERT: a few thousand binds, well under PostgreSQL's
    /// 65,535, and a transaction small enough to keep memory flat.
    static let rowsPerBatch = 500

    /// Copies `source` (SQLite, schema brought up to date by opening it)
    /// into `target` (PostgreSQL, likewise); the rows copied, by table.
    /// `progress` hears each table as it is done.
    public static func copy(from source: any ServerDatabase, to target: any ServerDatabase,
                            progress: (String, Int64) -> Void = { _, _ in }) async throws -> [String: Int64] {
        guard source.dialect == .sqlite else { throw Refusal.sourceNotSQLite }
        guard target.dialect == .postgresql else { throw Refusal.targetNotPostgreSQL }
        let tables = try await tablesInOrder(source)
        for table in tables {
            let rows = try await target.query("SELECT COUNT(*) AS n FROM \(table)").first?["n"].int ?? 0
            // The schema's own rows are this server's, the same on both sides.
            if rows > 0 && table != "schemaVersion" { throw Refusal.targetNotEmpty(table: table) }
        }
        var copied: [String: Int64] = [:]
        for table in tables where table != "schemaVersion" {
            copied[table] = try await copyRows(of: table, from: source, to: target)
            let there = try await target.query("SELECT COUNT(*) AS n FROM \(table)").first?["n"].int ?? 0
            guard there == copied[table] else {
                throw Refusal.countsDiffer(table: table, source: copied[table] ?? 0, target: there)
            }
            progress(table, there)
        }
        try await moveSequencesOn(target)
        return copied
    }

    /// The source's tables, each after the ones it refers to, so that
    /// PostgreSQL's foreign keys hold at every insert.
    static func tablesInOrder(_ source: any ServerDatabase) async throws -> [String] {
        let names = try await source.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0["name"].text }
        var refers: [String: Set<String>] = [:]
        for name in names {
            let keys = try await source.query("SELECT \"table\" AS target FROM pragma_foreign_key_list(?)", [.text(name)])
            refers[name] = Set(keys.compactMap { $0["target"].text }).subtracting([name])
        }
        var ordered: [String] = []
        var placed: Set<String> = []
        while ordered.count < names.count {
            guard let next = names.first(where: { !placed.contains($0) && refers[$0, default: []].isSubset(of: placed) })
            else {
                // A cycle (none today): the rest in name order.
                ordered += names.filter { !placed.contains($0) }
                break
            }
            ordered.append(next)
            placed.insert(next)
        }
        return ordered
    }

    /// One table in rowid order, a batch at a time: memory stays flat
    /// however long a year's change log is.
    private static func copyRows(of table: String, from source: any ServerDatabase,
                                 to target: any ServerDatabase) async throws -> Int64 {
        var after: Int64 = .min
        var count: Int64 = 0
        while true {
            let rows = try await source.query("""
                SELECT rowid AS "_copy_rowid", * FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT \(rowsPerBatch)
                """, [.int(after)])
            guard let first = rows.first else { return count }
            let columns = first.columns.keys.filter { $0 != "_copy_rowid" }.sorted()
            let marks = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let insert = SQLStatement(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                    + Array(repeating: marks, count: rows.count).joined(separator: ", "),
                rows.flatMap { row in columns.map { row[$0] } })
            try await target.transaction([insert])
            count += Int64(rows.count)
            guard let last = rows.last?["_copy_rowid"].int else { return count }
            after = last
        }
    }

    /// Every serial column (the change log's `seq`) continues after the
    /// highest copied value, as if the rows had been stored here.
    private static func moveSequencesOn(_ target: any ServerDatabase) async throws {
        let serials = try await target.query("""
            SELECT table_name AS t, column_name AS c FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'
            """)
        for serial in serials {
            guard let table = serial["t"].text, let column = serial["c"].text else { continue }
            try await target.execute("""
                SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'),
                              GREATEST((SELECT COALESCE(MAX(\(column)), 0) FROM \(table)), 1),
                              (SELECT COUNT(*) FROM \(table)) > 0)
                """)
        }
    }
}
