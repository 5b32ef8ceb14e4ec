import Foundation
import Logging
import NIOConcurrencyHelpers
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// docs/OPERATIONS.md's PostgreSQL steps, run as written: pg_dump while the
/// server works, pg_restore into an empty database, the guide's own
/// `setval` line, a server on the restored database; and `migrate-to`,
/// the command an administrator types, moving a SQLite school over.
@Suite struct OperationsGuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let serverBinary = root.appendingPathComponent(".build/debug/TeamsketchServer").path

    /// The newest PostgreSQL's programs, as scripts/test-postgres.sh finds them.
    static func postgresTool(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw TestSetupProblem("PostgreSQL's programs are not installed (Debian package postgresql)")
        }
        return "/usr/lib/postgresql/\(newest)/bin/\(name)"
    }

    /// The guide's line that moves the change log's numbering on.
    static func guidesSetvalStatement() throws -> String {
        let guide = try String(contentsOf: root.appendingPathComponent("docs/OPERATIONS.md"), encoding: .utf8)
        guard let line = guide.split(separator: "\n").first(where: { $0.contains("setval(") && $0.hasPrefix("psql") }),
              let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close
        else { throw TestSetupProblem("docs/OPERATIONS.md has no psql … -c \"SELECT setval(…)\" line") }
        return String(line[line.index(after: open)..<close])
    }

    static func run(_ program: String, _ arguments: [String], input: String? = nil) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Exits once its output has ended; waited for off the test's thread.
        await withCheckedContinuation { done in
            DispatchQueue.global().async { process.waitUntilExit(); done.resume() }
        }
        return (process.terminationStatus, text)
    }

    static func url(_ location: DatabaseLocation) throws -> String {
        guard case .postgres(let p) = location, let host = p.host, let database = p.database else {
            throw TestSetupProblem("not a PostgreSQL address over TCP: \(location)")
        }
        return "postgres://\(p.user)@\(host):\(p.port)/\(database)"
    }

    /// A year of a class, dumped while two pupils keep drawing, restored:
    /// every sketch, grade and game result is back as it was.
    @Test func aPostgreSQLSchoolBacksUpWithPgDumpAndRestoresAsTheGuideSays() async throws {
        let live = try await Backend.postgresql.makeLocation()
        var server = TestServer(.postgresql)
        server.database = { clock in try await live.open(logger: Logger(label: "test"), clock: clock) }
        let clock = server.clock
        let written = NIOLockedValueBox<(YearOfAClass, YearOfAClass.Seen, Set<String>)?>(nil)
        let dump = FileManager.default.temporaryDirectory.path + "/teamsketch-\(UUID().uuidString).dump"
        defer { try? FileManager.default.removeItem(atPath: dump) }
        try await server.run { api in
            let year = try await YearOfAClass.write(api)
            let before = try await year.seen(api)
            YearOfAClass.expectWhole(before)
            // The nightly dump, taken while two pupils keep drawing.
            let load = try await DrawingLoad.start(api, pupils: [year.klass.pupils["Kind 1"]!, year.klass.pupils["Kind 2"]!])
            try await eventually("the pupils draw") { load.pushes > 3 }
            let (status, said) = try await Self.run(try Self.postgresTool("pg_dump"),
                                                     ["--format=custom", "--file=\(dump)", try Self.url(live)])
            #expect(status == 0, "\(said)")
            try await eventually("drawing goes on after the dump") { load.pushes > 10 }
            try await load.stop()
            written.withLockedValue { $0 = (year, before, load.sketches) }
        }
        let (year, before, drawn) = try #require(written.withLockedValue { $0 })

        // Restored into an empty database, then the guide's setval.
        let restored = try await Backend.postgresql.makeLocation()
        let (status, said) = try await Self.run(try Self.postgresTool("pg_restore"), ["--dbname=\(try Self.url(restored))", dump])
        #expect(status == 0, "\(said)")
        let (moved, psqlSaid) = try await Self.run(try Self.postgresTool("psql"),
                                                    [try Self.url(restored), "-v", "ON_ERROR_STOP=1", "-c", try Self.guidesSetvalStatement()])
        #expect(moved == 0, "\(psqlSaid)")

        var again = TestServer(.postgresql)
        again.database = { clock in try await restored.open(logger: Logger(label: "test"), clock: clock) }
        again.clock.advance(seconds: (clock.now - again.clock.now) / 1000)
        try await again.run { api in
            let after = try await year.seen(api, leaving: drawn)
            #expect(after == before)
            // New work is numbered past anything a laptop pulled from the
            // lost server, so a laptop whose cursor is there still gets it.
            let pupil = try #require(year.klass.pupils["Kind 3"])
            let (_, cursor) = try await api.pullPages(token: pupil.token)
            _ = try await api.pushMarked([Changes.create(UUID(), name: "Neu", origin: .alone(creator: UUID(uuidString: pupil.id)))],
                                         token: pupil.token)
            let newest = try await api.database.query("SELECT MAX(seq) AS s FROM change").first?["s"].int ?? 0
            #expect(newest > cursor + 900_000_000, "\(newest) after \(cursor)")
        }
    }

    /// `migrate-to` as an administrator types it: yesterday's SQLite file
    /// into an empty PostgreSQL database, which then serves the school.
    @Test func migrateToMovesASQLiteSchoolToPostgreSQL() async throws {
        let copy = FileManager.default.temporaryDirectory.path + "/school-v7-\(UUID().uuidString).sqlite"
        try FileManager.default.copyItem(atPath: SchoolUpgradeTests.folder.appendingPathComponent("school-v7.sqlite").path,
                                         toPath: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        let target = try await Backend.postgresql.makeLocation()
        let (status, said) = try await Self.run(Self.serverBinary, ["migrate-to", try Self.url(target), "--database", copy])
        #expect(status == 0, "\(said)")
        #expect(said.contains("change: 27 rows") && said.contains("Copied"), "\(said)")
        try await SchoolUpgradeTests().expectYesterdaysSchool(in: target, on: .postgresql)
        let (again, refused) = try await Self.run(Self.serverBinary, ["migrate-to", try Self.url(target), "--database", copy])
        #expect(again != 0 && refused.contains("already holds data"), "\(refused)")
    }
}
