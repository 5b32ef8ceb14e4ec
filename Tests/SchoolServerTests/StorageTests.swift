import Foundation
import Logging
import Testing
@testable import SchoolServer

@Suite struct StorageTests {
    /// Two or more server processes starting at once on one database (a
    /// district's servers behind one address after an update).
    @Test(arguments: Backend.allCases)
    func serversStartingAtOnceMigrateOnce(_ backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let opened = try await withThrowingTaskGroup(of: (any ServerDatabase).self) { group in
            for _ in 0..<4 {
                group.addTask { try await location.open(logger: Logger(label: "test")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(opened.count == 4)
        let versions = try await opened[0].query("SELECT version FROM schemaVersion")
        #expect(versions.map { $0["version"] } == Migrations.all.map { .int($0.version) })
        for db in opened { await db.close() }
    }

    @Test(arguments: Backend.allCases)
    func valuesComeBackAsTheyWentIn(_ backend: Backend) async throws {
        let db = try await backend.makeDatabase(clock: .live)
        let tricky = "Anna'; DROP TABLE account; -- ? $1 \u{1F98A} ß"
        let rows = try await db.execute("""
            INSERT INTO account (id, role, name, nameKey, createdAt) VALUES (?, 'teacher', ?, ?, ?)
            RETURNING name, createdAt, passwordHash
            """, [.text(UUID().uuidString.lowercased()), .text(tricky), .text(tricky.lowercased()), .int(Int64.max)])
        #expect(rows.first?["name"] == .text(tricky))
        #expect(rows.first?["createdAt"] == .int(Int64.max))
        #expect(rows.first?["passwordHash"] == .null)
        #expect(try await db.query("SELECT COUNT(*) AS n FROM account").first?["n"] == .int(1))
        await db.close()
    }

    @Test(arguments: Backend.allCases)
    func aFailingStatementRollsBackTheWholeTransaction(_ backend: Backend) async throws {
        let db = try await backend.makeDatabase(clock: .live)
        let id = UUID().uuidString.lowercased()
        let insert = SQLStatement("INSERT INTO account (id, role, name, nameKey, createdAt) VALUES (?, 'teacher', 'A', 'a', 0)",
                                  [.text(id)])
        await #expect(throws: (any Error).self) {
            try await db.transaction([insert, insert])
        }
        #expect(try await db.query("SELECT COUNT(*) AS n FROM account").first?["n"] == .int(0))
        await db.close()
    }

    @Test func placeholdersAreNumberedOutsideQuotesOnly() {
        let statement = SQLStatement("SELECT '?' AS q, \"a?b\" FROM t WHERE x = ? AND y = ?")
        #expect(statement.numberedSQL == "SELECT '?' AS q, \"a?b\" FROM t WHERE x = $1 AND y = $2")
    }

    @Test func databaseAddressesAreReadOrRefused() throws {
        #expect(try DatabaseLocation("data/server.sqlite") == .sqlite(path: "data/server.sqlite"))
        #expect(try DatabaseLocation("sqlite:/var/lib/t.sqlite") == .sqlite(path: "/var/lib/t.sqlite"))
        guard case .postgres(let pg) = try DatabaseLocation("postgres://anna:secret@db.local:5433/school") else {
            Issue.record("not PostgreSQL"); return
        }
        #expect(pg.host == "db.local" && pg.port == 5433 && pg.user == "anna" && pg.password == "secret" && pg.database == "school")
        guard case .postgres(let socket) = try DatabaseLocation("postgres://anna@/school?host=/run/postgresql") else {
            Issue.record("not PostgreSQL"); return
        }
        #expect(socket.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(pg.tls == .disable)
        guard case .postgres(let verified) = try DatabaseLocation(
            "postgres://anna@db.local/school?sslmode=verify-full&sslrootcert=/etc/school-ca.pem") else {
            Issue.record("not PostgreSQL"); return
        }
        #expect(verified.tls == .verifyFull(rootCertificates: "/etc/school-ca.pem") && verified.password == nil)
        guard case .postgres(let required) = try DatabaseLocation("postgres://anna@db.local/school?sslmode=require") else {
            Issue.record("not PostgreSQL"); return
        }
        #expect(required.tls == .require)
        #expect(throws: DatabaseProblem.self) { try DatabaseLocation("postgres://anna@db.local/school?sslmode=allow") }
        #expect(throws: DatabaseProblem.self) { try DatabaseLocation("postgres://anna@/school?host=/run/postgresql&sslmode=require") }
        #expect(throws: DatabaseProblem.self) { try DatabaseLocation("mysql://x@y/z") }
        #expect(throws: DatabaseProblem.self) { try DatabaseLocation("postgres://db.local/school") }
        #expect(throws: DatabaseProblem.self) { try DatabaseLocation("postgres://a@db.local:70000/school") }
    }
}

@Suite struct SignInPolicyTests {
    let policy = SignInPolicy()
    let minute: Int64 = 60_000

    @Test func fourFailuresOnADeviceAreAllowedTheFifthWaitsUntilTheOldestAgesOut() {
        let now: Int64 = 100 * minute
        let four = (0..<4).map { now - Int64($0) * minute }
        #expect(policy.decide(device: four, account: four, address: four, usual: false, now: now) == .allowed)
        let five = four + [now - 10 * minute]
        #expect(policy.decide(device: five, account: five, address: five, usual: false, now: now) == .wait(seconds: 5 * 60))
        // Its own failures stop a usual device too.
        #expect(policy.decide(device: five, account: five, address: five, usual: true, now: now) == .wait(seconds: 5 * 60))
    }

    @Test func anAddressMayFailMoreThanOneAccount() {
        let now: Int64 = 100 * minute
        let many = (0..<29).map { now - Int64($0) * 1000 }
        #expect(policy.decide(device: [], account: [], address: many, usual: false, now: now) == .allowed)
        #expect(policy.decide(device: [], account: [], address: many + [now], usual: false, now: now) != .allowed)
    }

    /// Ten failures of an account from strangers' devices stop every
    /// other stranger's device, never the account's usual ones.
    @Test func failuresFromElsewhereStopOnlyUnusualDevices() {
        let now: Int64 = 100 * minute
        let ten = (0..<10).map { now - Int64($0) * 1000 }
        #expect(policy.decide(device: [], account: ten, address: [], usual: false, now: now) != .allowed)
        #expect(policy.decide(device: [], account: ten, address: [], usual: true, now: now) == .allowed)
        #expect(policy.decide(device: [], account: Array(ten.prefix(9)), address: [], usual: false, now: now) == .allowed)
    }
}

@Suite struct SignInThrottleTests {
    @Test func triesAtOnceCountAgainstEachOtherAndARightOneForgetsTheAccountsFailures() {
        let throttle = SignInThrottle(policy: SignInPolicy())
        let now: Int64 = 1_790_000_000_000
        let decisions = (0..<8).map { _ in throttle.begin(accountKey: "mia", device: "10.0.0.5", address: "10.0.0.5", usual: false, now: now) }
        #expect(decisions.filter { $0 == .allowed }.count == 5)
        throttle.succeeded(accountKey: "mia", device: "10.0.0.5", address: "10.0.0.5", usual: false, at: now)
        #expect(throttle.begin(accountKey: "mia", device: "10.0.0.5", address: "10.0.0.5", usual: false, now: now) == .allowed)
        // Mia signing in on her laptop leaves what Eve tried elsewhere.
        for _ in 0..<5 { _ = throttle.begin(accountKey: "mia", device: "10.0.0.66", address: "10.0.0.66", usual: false, now: now) }
        #expect(throttle.begin(accountKey: "mia", device: "10.0.0.7", address: "10.0.0.7", usual: true, now: now) == .allowed)
        throttle.succeeded(accountKey: "mia", device: "10.0.0.7", address: "10.0.0.7", usual: true, at: now)
        #expect(throttle.begin(accountKey: "mia", device: "10.0.0.66", address: "10.0.0.66", usual: false, now: now) != .allowed)
        // A class signing in on one kiosk, one after another: a right try
        // is no failure of the address.
        for n in 0..<40 {
            #expect(throttle.begin(accountKey: "pupil \(n)", device: "10.0.0.9", address: "10.0.0.9", usual: false, now: now) == .allowed)
            throttle.succeeded(accountKey: "pupil \(n)", device: "10.0.0.9", address: "10.0.0.9", usual: false, at: now)
        }
        // The window passes: everything is allowed again.
        for _ in 0..<10 { _ = throttle.begin(accountKey: "ole", device: "10.0.0.6", address: "10.0.0.6", usual: false, now: now) }
        #expect(throttle.begin(accountKey: "ole", device: "10.0.0.6", address: "10.0.0.6", usual: false, now: now) != .allowed)
        #expect(throttle.begin(accountKey: "ole", device: "10.0.0.6", address: "10.0.0.6", usual: false, now: now + 15 * 60_000 + 1) == .allowed)
    }

    @Test func anIPv6AddressCountsWithItsWholeSlash64() {
        #expect(ClientAddress.key("2001:db8:1:2::1") == ClientAddress.key("2001:db8:1:2:ffff::9"))
        #expect(ClientAddress.key("2001:db8:1:2::1") != ClientAddress.key("2001:db8:1:3::1"))
        #expect(ClientAddress.key("::ffff:10.0.0.5") == "10.0.0.5")
        #expect(ClientAddress.key("10.0.0.5") == "10.0.0.5")
    }
}
