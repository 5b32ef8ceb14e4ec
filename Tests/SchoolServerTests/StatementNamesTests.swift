import Foundation
import Logging
import Testing
@testable import SchoolServer

/// PostgreSQL keeps the server's statements planned on each connection
/// under names; which statements get one, and that a name whose plan no
/// longer fits its table is given up instead of failing from then on.
@Suite struct StatementNamesTests {
    @Test func oneTextWithValuesOfTheSameTypesIsOneName() throws {
        let names = StatementNames()
        let first = try #require(names.name(for: SQLStatement("SELECT name FROM account WHERE id = ?", [.text("a")])))
        #expect(names.name(for: SQLStatement("SELECT name FROM account WHERE id = ?", [.text("b")])) == first)
        // PostgreSQL fixes a parameter's type as it prepares.
        let asNumber = names.name(for: SQLStatement("SELECT name FROM account WHERE id = ?", [.int(1)]))
        #expect(asNumber != nil && asNumber != first)
        let otherText = names.name(for: SQLStatement("SELECT name FROM account WHERE role = ?", [.text("a")]))
        #expect(otherText != nil && otherText != first)
        #expect(names.name(for: SQLStatement("  WITH x AS (SELECT 1) SELECT * FROM x")) != nil)
    }

    @Test func schemaChangesAndLongListsGoUnnamed() {
        let names = StatementNames(capacity: 10, maxBinds: 3)
        #expect(names.name(for: SQLStatement("CREATE TABLE t (id INTEGER)")) == nil)
        #expect(names.name(for: SQLStatement("ALTER TABLE t ADD COLUMN name TEXT")) == nil)
        #expect(names.name(for: SQLStatement("SELECT 1 FROM t WHERE id IN (?, ?, ?)", [.int(1), .int(2), .int(3)])) != nil)
        #expect(names.name(for: SQLStatement("SELECT 1 FROM t WHERE id IN (?, ?, ?, ?)",
                                             [.int(1), .int(2), .int(3), .int(4)])) == nil)
    }

    @Test func namesStopAtTheCapacityAndOneGivenUpStillCounts() throws {
        let names = StatementNames(capacity: 3)
        let a = SQLStatement("SELECT 1 AS a"), b = SQLStatement("SELECT 2 AS b"), c = SQLStatement("SELECT 3 AS c")
        let first = try #require(names.name(for: a))
        #expect(names.name(for: b) != nil)
        names.forget(a, named: first)
        let again = try #require(names.name(for: a))
        #expect(again != first)
        // Three names are issued: a's first, b's and a's second.
        #expect(names.name(for: c) == nil)
        #expect(names.name(for: a) == again)
    }

    /// Two calls that failed on one name both give it up: the second must
    /// not take away the name the first one's retry was just given.
    @Test func aNameIsGivenUpOnceAndAStatementThatKeepsFailingStaysUnnamed() throws {
        let names = StatementNames()
        let a = SQLStatement("SELECT 1 AS a")
        let first = try #require(names.name(for: a))
        names.forget(a, named: first)
        let second = try #require(names.name(for: a))
        names.forget(a, named: first)
        #expect(names.name(for: a) == second)
        names.forget(a, named: second)
        #expect(StatementNames.failuresBeforeUnnamed == 2)
        #expect(names.name(for: a) == nil)
        #expect(names.name(for: SQLStatement("SELECT 2 AS b")) != nil)
    }

    @Test func aNamedStatementIsPlannedOnceOnItsConnectionAndAnswersEachCallsValues() async throws {
        let db = try await openPostgres()
        try await db.execute("CREATE TABLE pupil (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try await db.execute("INSERT INTO pupil (id, name) VALUES (?, ?), (?, ?)", [.int(1), .text("Mia"), .int(2), .text("Ole")])
        let select = "SELECT name FROM pupil WHERE id = ?"
        let name = try #require(db.names.name(for: SQLStatement(select, [.int(1)])))
        // One transaction is one connection: both calls and the look at
        // what that connection holds prepared.
        let results = try await db.transaction([
            SQLStatement(select, [.int(1)]),
            SQLStatement(select, [.int(2)]),
            SQLStatement("SELECT statement FROM pg_prepared_statements WHERE name = ?", [.text(name)]),
        ])
        #expect(results[0].map { $0["name"].text } == ["Mia"])
        #expect(results[1].map { $0["name"].text } == ["Ole"])
        #expect(results[2].map { $0["statement"].text } == [SQLStatement(select).numberedSQL])
        await db.close()
    }

    /// A prepared `SELECT *` fails ("cached plan must not change result
    /// type") once its table gains a column, on every connection that
    /// prepared it. Thirty at once, each holding its connection a moment,
    /// take every one of the pool's twenty, before and after the change.
    @Test func aStatementWhosePlanNoLongerFitsItsTableIsPreparedAgain() async throws {
        let db = try await openPostgres()
        try await db.execute("CREATE TABLE pupil (id INTEGER PRIMARY KEY)")
        try await db.execute("INSERT INTO pupil (id) VALUES (?)", [.int(7)])
        // One statement for each way of running one, so that neither is
        // given up by the other's failure.
        let select = SQLStatement("SELECT * FROM pupil WHERE id = ?", [.int(7)])
        let selectAlone = SQLStatement("SELECT * FROM pupil WHERE id = ? ORDER BY id", [.int(7)])
        let pause = SQLStatement("SELECT pg_sleep(?) AS slept", [.double(0.2)])
        _ = try await everyConnection { try await db.transaction([select, selectAlone, pause])[0] }
        try await db.execute("ALTER TABLE pupil ADD COLUMN name TEXT")
        let inTransactions = try await everyConnection { try await db.transaction([select, pause])[0] }
        let alone = try await everyConnection { try await db.query(selectAlone) }
        for rows in inTransactions + alone {
            #expect(rows.count == 1 && rows.first?["id"].int == 7 && rows.first?["name"] == .null)
        }
        await db.close()
    }

    private func openPostgres() async throws -> PostgresDatabase {
        let db = try await Backend.postgresql.makeLocation().open(logger: Logger(label: "test"), migrating: false)
        return try #require(db as? PostgresDatabase)
    }

    private func everyConnection(_ body: @escaping @Sendable () async throws -> [SQLRow]) async throws -> [[SQLRow]] {
        try await withThrowingTaskGroup(of: [SQLRow].self) { group in
            for _ in 0..<30 { group.addTask { try await body() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
