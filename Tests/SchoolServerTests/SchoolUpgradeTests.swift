import Foundation
import LearnModel
import Logging
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// A school's database as an earlier release's server left it upgrades on
/// start with nothing lost. Each fixture (Tests/server-fixtures/school-vN.*)
/// was made by the server of schema version N through its real API: two
/// teachers and their classes, sketches (one renamed, a team's, a deleted
/// one), grades (one edited), a team game's rounds, profiles, a word list
/// and class settings, and from version 16 on the school's retention, an
/// archived class and the devices that know a class; beside it, what
/// every account pulled and saw listed then, and each class's
/// spreadsheets. school-v7 was made by the server of 880c475
/// (make-school-v7.swift.txt); later ones by make-school.swift.txt through
/// scripts/make-server-fixture.sh. On PostgreSQL the same rows are copied
/// into a database at the fixture's version first.
@Suite struct SchoolUpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("server-fixtures")

    struct Fixture: Decodable {
        struct Person: Decodable {
            var name: String; var id: String; var token: String; var pulled: [String]; var sketches: [String]
            /// The changes the account was charged for (from version 16 on).
            var usage: Int64?
        }
        struct Report: Decodable { var `class`: String; var teacher: String; var grades: String; var games: String }
        struct Device: Decodable { var mark: String; var classes: [String] }
        var accounts: [Person]
        var reports: [Report]
        // Kept from version 16 on.
        var retentionDays: Int?
        var devices: [Device]?
        var archived: [String]?
    }

    /// Every release's fixture, by the schema version that made it
    /// (`school-v7` → 7), oldest first.
    static let fixtures: [Int64] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> Int64? in
            guard name.hasPrefix("school-v"), name.hasSuffix(".sqlite") else { return nil }
            return Int64(name.dropFirst("school-v".count).dropLast(".sqlite".count))
        }.sorted()
    }()

    static func file(_ version: Int64, _ suffix: String) -> URL {
        folder.appendingPathComponent("school-v\(version).\(suffix)")
    }

    /// A release that changed the schema left its fixture: the newest one is
    /// of today's schema, so the next migration is tested against it.
    @Test func todaysSchemaHasItsFixture() {
        #expect(Self.fixtures.first == 7)
        #expect(Self.fixtures.last == Migrations.newestVersion,
                "schema \(Migrations.newestVersion) has no fixture: run scripts/make-server-fixture.sh and commit it")
    }

    /// The fixture of `version`'s database on this backend, not yet upgraded.
    func yesterdaysDatabase(_ backend: Backend, version: Int64 = 7) async throws -> DatabaseLocation {
        let copy = FileManager.default.temporaryDirectory.path + "/school-v\(version)-\(UUID().uuidString).sqlite"
        try FileManager.default.copyItem(atPath: Self.file(version, "sqlite").path, toPath: copy)
        let sqlite = DatabaseLocation.sqlite(path: copy)
        guard backend == .postgresql else { return sqlite }
        let location = try await backend.makeLocation()
        let target = try await location.open(logger: Logger(label: "test"), migrating: false)
        let source = try await sqlite.open(logger: Logger(label: "test"), migrating: false)
        try await Migrations.apply(to: target, now: 1, through: version)
        // The same copy `migrate-to` makes, here between equal old schemas.
        _ = try await SQLiteToPostgres.copy(from: source, to: target)
        await source.close()
        await target.close()
        return location
    }

    @Test(arguments: Backend.allCases, fixtures)
    func anEarlierReleasesSchoolUpgradesWithNothingLost(_ backend: Backend, version: Int64) async throws {
        try await expectYesterdaysSchool(in: try await yesterdaysDatabase(backend, version: version), on: backend,
                                         version: version)
    }

    /// A school that outgrew its SQLite file moves to PostgreSQL
    /// (`migrate-to`): yesterday's file, upgraded as the server opens it,
    /// copied into an empty PostgreSQL database, serves every account
    /// there as it did, and a second copy into it is refused.
    @Test func aSQLiteSchoolMovesToPostgreSQLWithNothingLost() async throws {
        let sqlite = try await yesterdaysDatabase(.sqlite)
        let postgres = try await Backend.postgresql.makeLocation()
        let source = try await sqlite.open(logger: Logger(label: "test"))
        let target = try await postgres.open(logger: Logger(label: "test"))
        let copied = try await SQLiteToPostgres.copy(from: source, to: target)
        #expect(copied["change"] == 27 && copied["account"] == 5, "\(copied)")
        await #expect(throws: SQLiteToPostgres.Refusal.targetNotEmpty(table: "account")) {
            try await SQLiteToPostgres.copy(from: source, to: target)
        }
        await source.close()
        await target.close()
        try await expectYesterdaysSchool(in: postgres, on: .postgresql)
    }

    func expectYesterdaysSchool(in location: DatabaseLocation, on backend: Backend, version: Int64 = 7) async throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: Self.file(version, "json")))
        var server = TestServer(backend)
        server.database = { clock in try await location.open(logger: Logger(label: "test"), clock: clock) }
        try await server.run { api in
            #expect(try await api.database.query("SELECT MAX(version) AS v FROM schemaVersion").first?["v"].int
                == Migrations.newestVersion)
            // Its first teacher became the school's admin, and nobody else.
            let admins = try await api.database.query("SELECT role, createdAt FROM account WHERE admin = 1")
            #expect(admins.count == 1)
            #expect(admins.first?["role"].text == "teacher")
            let firstMade = try await api.database.query("SELECT MIN(createdAt) AS t FROM account WHERE role = 'teacher'").first?["t"].int
            #expect(admins.first?["createdAt"].int == firstMade)
            // Every class got its own key for its wall.
            let keys = try await api.database.query("SELECT watchKey FROM schoolClass").map { $0["watchKey"].text }
            #expect(!keys.isEmpty && keys.allSatisfy { $0.flatMap(ClassWatchKey.init(hex:)) != nil })
            #expect(Set(keys).count == keys.count)
            // Every account pulls and lists what it did yesterday, signed in
            // with yesterday's token.
            for person in fixture.accounts {
                let pulled = try await api.pullAll(token: person.token).compactMap { $0["opId"] as? String }.sorted()
                #expect(pulled == person.pulled, "\(person.name)")
                let listed = try await api.call(.get, "/sketches", token: person.token).array.compactMap { $0["id"] as? String }
                #expect(listed.sorted() == person.sketches, "\(person.name)")
            }
            // Each class's spreadsheets have the same rows (grades of one
            // minute may come in another order), read in English as the
            // fixture's server wrote them.
            for report in fixture.reports {
                let browser = WebGalleryTests.Browser(api.client, language: "en")
                let form = try await browser.get("/gallery/signin")
                _ = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", report.teacher),
                                                              ("password", "correct horse")])
                func rows(_ csv: String) -> [String] { csv.components(separatedBy: "\r\n").sorted() }
                let grades = try await browser.get("/gallery/classes/\(report.class)/grades.csv").text
                #expect(rows(grades) == rows(report.grades), "\(report.teacher): \(grades)")
                let games = try await browser.get("/gallery/classes/\(report.class)/games.csv").text
                #expect(rows(games) == rows(report.games), "\(report.teacher): \(games)")
                #expect(rows(report.grades).count > 2 && rows(report.games).count > 2, "the fixture has rows to lose")
            }
            // Mia's edited grade keeps its history; her picture is there.
            let mia = try #require(fixture.accounts.first { $0.name == "Mia" })
            let twoB = try #require(fixture.reports.first { $0.teacher == "Frau Berg" })
            let berg = WebGalleryTests.Browser(api.client, language: "de")
            let form = try await berg.get("/gallery/signin")
            _ = try await berg.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Frau Berg"),
                                                       ("password", "correct horse")])
            let page = try await berg.get("/gallery/classes/\(twoB.class)/pupils/\(mia.id)").text
            #expect(page.contains("<summary>Vorher</summary>") && page.contains("<q>Gut</q>"), "\(page)")
            #expect(try await berg.get("/gallery/people/\(mia.id)/picture.png").status == .ok)
            // What each account stored before counts against its quota: what
            // it was charged, or, from a release before quotas, what it wrote.
            for person in fixture.accounts {
                let counted = try await api.database.query(
                    "SELECT CAST(SUM(changes) AS BIGINT) AS n FROM accountUsage WHERE accountId = ?", [.text(person.id)]
                ).first?["n"].int ?? 0
                let written = try await api.database.query(
                    "SELECT COUNT(*) AS n FROM change WHERE authorId = ? AND copyOf IS NULL", [.text(person.id)]
                ).first?["n"].int
                #expect(counted > 0 && counted == person.usage ?? written, "\(person.name): \(counted)")
            }
            // And the school goes on: a new change is stored after the old ones.
            let profile = Changes.record("profile", mia.id, ProfileRecord(name: "Mia S", at: 9))
            #expect(try await api.push([profile], token: mia.token).rejected.isEmpty)
            #expect(try await api.pullAll(token: mia.token).count == mia.pulled.count + 1)
            // Yesterday's team sketch is Mia's, who pushed it first, with
            // Ole as a member: he draws on in it, only she renames it.
            let ole = try #require(fixture.accounts.first { $0.name == "Ole" })
            let zooRow = try await api.call(.get, "/sketches", token: ole.token).array.first { $0["name"] as? String == "Zoo" }
            let zoo = try #require(UUID(uuidString: zooRow?["id"] as? String ?? ""))
            let olesStroke = Changes.stroke(zoo, author: "Ole", x: 700)
            #expect(try await api.push([olesStroke], token: ole.token).rejected.isEmpty)
            let olesRename = Changes.sketchChange(zoo, .rename("Oles Zoo", at: 10))
            #expect(try await api.push([olesRename], token: ole.token).rejected[olesRename["opId"] as! String] == "forbidden")
            #expect(try await api.push([Changes.sketchChange(zoo, .rename("Unser Zoo", at: 11))], token: mia.token).rejected.isEmpty)
            #expect(try await api.database.query("SELECT id FROM sketch WHERE creatorId IS NULL").isEmpty)
            // What the admin decided, what was archived and which devices
            // know which class stay as they were.
            let bergsToken = try #require(fixture.accounts.first { $0.name == "Frau Berg" }).token
            if let days = fixture.retentionDays {
                #expect(try await api.call(.get, "/school/retention", token: bergsToken).object["days"] as? Int == days)
            }
            if let archived = fixture.archived {
                let listed = try await api.call(.get, "/classes?archived=true", token: bergsToken).array
                #expect(listed.filter { $0["archived"] as? Bool == true }.compactMap { $0["id"] as? String }.sorted()
                        == archived.sorted())
                #expect(!archived.isEmpty, "the fixture has an archived class to lose")
            }
            for device in fixture.devices ?? [] {
                let known = try await api.call(.get, "/sign-in/classes", headers: TestAPI.device(device.mark)).array
                #expect(known.compactMap { $0["id"] as? String }.sorted() == device.classes, "\(device.mark)")
                #expect(!device.classes.isEmpty, "the fixture has a device that knows a class")
            }
        }
    }

    /// A database a newer server already upgraded is not touched by an
    /// older one (a package downgraded, an old binary started by mistake):
    /// it stops with a message saying which, and changes nothing.
    @Test(arguments: Backend.allCases)
    func anOlderServerRefusesADatabaseANewerOneUpgraded(_ backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let today = try await location.open(logger: Logger(label: "test"))
        let newer = Migrations.newestVersion + 1
        try await today.execute("INSERT INTO schemaVersion (version, appliedAt) VALUES (?, 1)", [.int(newer)])
        await today.close()
        await #expect(throws: DatabaseProblem.newerSchema(found: newer, known: Migrations.newestVersion)) {
            let database = try await location.open(logger: Logger(label: "test"))
            await database.close()
        }
        let after = try await location.open(logger: Logger(label: "test"), migrating: false)
        let versions = try await after.query("SELECT version FROM schemaVersion").compactMap { $0["version"].int }
        await after.close()
        #expect(Set(versions) == Set(1...newer))
        #expect(DatabaseProblem.newerSchema(found: 18, known: 16).description.contains("schema 18"))
    }
}
