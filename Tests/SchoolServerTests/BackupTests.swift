import Foundation
import Logging
import NIOConcurrencyHelpers
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// A backup of the SQLite file made while two pupils keep pushing, put
/// back and served by a new server: it holds the school as it was at one
/// moment, each push whole, and signing in and pulling work on it.
@Suite struct BackupTests {
    static func server(on path: String) -> TestServer {
        var server = TestServer(.sqlite)
        server.database = { clock in try await DatabaseLocation.sqlite(path: path).open(logger: Logger(label: "test"), clock: clock) }
        return server
    }

    @Test func aBackupWhilePupilsPushIsOneMomentAndRestoresIntoANewServer() async throws {
        let dir = TempDir()
        let live = dir.file("live.sqlite"), backup = dir.file("backup.sqlite"), restored = dir.file("restored.sqlite")
        try await Self.server(on: live).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let pupils = [(klass.pupils["Mia"]!, UUID()), (klass.pupils["Ole"]!, UUID())]
            for (pupil, sketch) in pupils { _ = try await api.pushMarked([Changes.create(sketch)], token: pupil.token) }
            // Each keeps drawing, three strokes to a push, while the backup is made.
            let drawing = Task {
                var round = 0
                while !Task.isCancelled {
                    for (pupil, sketch) in pupils {
                        let strokes = (0..<3).map { Changes.stroke(sketch, x: Double(round * 3 + $0)) }
                        _ = try await api.pushMarked(strokes, token: pupil.token)
                    }
                    round += 1
                }
            }
            try await eventually("the pupils draw") { ((try? await api.pullAll(token: berg).count) ?? 0) > 30 }
            let version = try await Task.detached { try SQLiteBackup.copy(from: live, to: backup) }.value
            #expect(version == Migrations.newestVersion)
            let atBackup = try await api.pullAll(token: berg).count
            try await eventually("drawing goes on after the backup") {
                ((try? await api.pullAll(token: berg).count) ?? 0) > atBackup + 12
            }
            drawing.cancel()
            _ = try? await drawing.value
            let (all, liveCursor) = try await api.pullPages(token: berg)
            let everything = all.ids()

            try SQLiteBackup.restore(from: backup, to: restored)
            try await Self.server(on: restored).run { restoredAPI in
                // The teacher's sign-in is in the backup too.
                let kept = try await restoredAPI.pullAll(token: berg)
                #expect(kept.count > 30 && kept.count < everything.count)
                // The live database at one moment: its first changes, in order.
                #expect(kept.ids() == Array(everything.prefix(kept.count)))
                for (pupil, _) in pupils {
                    let strokes = kept.filter { $0["authorId"] as? String == pupil.id && $0["entity"] as? String == "sketchOp" }
                    #expect(strokes.count % 3 == 0, "only whole pushes")
                }
                // And the restored server goes on taking work, which reaches
                // a laptop that had pulled past the backup on the lost server.
                let (pupil, sketch) = pupils[0]
                let later = Changes.stroke(sketch, x: 9_999)
                _ = try await restoredAPI.pushMarked([later], token: pupil.token)
                let pulled = try await restoredAPI.call(.get, "/sync/changes?after=\(liveCursor)", token: berg)
                #expect((pulled.object["changes"] as? [[String: Any]])?.ids() == [later["opId"] as! String])
            }
        }
    }

    /// A year of a class backed up while two pupils keep drawing, restored
    /// into a new server: every sketch, grade and game result is back.
    @Test func aYearOfAClassBacksUpUnderLoadAndComesBackWhole() async throws {
        let dir = TempDir()
        let live = dir.file("live.sqlite"), backup = dir.file("backup.sqlite"), restored = dir.file("restored.sqlite")
        let written = NIOLockedValueBox<(YearOfAClass, YearOfAClass.Seen, Set<String>)?>(nil)
        let server = Self.server(on: live)
        try await server.run { api in
            let year = try await YearOfAClass.write(api)
            let before = try await year.seen(api)
            YearOfAClass.expectWhole(before)
            let load = try await DrawingLoad.start(api, pupils: [year.klass.pupils["Kind 1"]!, year.klass.pupils["Kind 2"]!])
            try await eventually("the pupils draw") { load.pushes > 3 }
            _ = try await Task.detached { try SQLiteBackup.copy(from: live, to: backup) }.value
            try await eventually("drawing goes on after the backup") { load.pushes > 10 }
            try await load.stop()
            written.withLockedValue { $0 = (year, before, load.sketches) }
        }
        let (year, before, drawn) = try #require(written.withLockedValue { $0 })
        try SQLiteBackup.restore(from: backup, to: restored)
        let again = Self.server(on: restored)
        again.clock.advance(seconds: (server.clock.now - again.clock.now) / 1000)
        try await again.run { api in
            let after = try await year.seen(api, leaving: drawn)
            #expect(after == before)
        }
    }

    @Test func nothingIsOverwrittenAndOnlyASoundTeamsketchDatabaseIsCopied() async throws {
        let dir = TempDir()
        let live = dir.file("live.sqlite")
        try await Self.server(on: live).run { api in _ = try await api.teacher("Frau Berg") }
        try SQLiteBackup.copy(from: live, to: dir.file("first.sqlite"))
        #expect(throws: SQLiteBackup.Refusal.destinationExists(dir.file("first.sqlite"))) {
            try SQLiteBackup.copy(from: live, to: dir.file("first.sqlite"))
        }
        // A log left by a database moved aside without it.
        FileManager.default.createFile(atPath: dir.file("aside.sqlite-wal"), contents: Data([1]))
        #expect(throws: SQLiteBackup.Refusal.destinationExists(dir.file("aside.sqlite-wal"))) {
            try SQLiteBackup.copy(from: live, to: dir.file("aside.sqlite"))
        }
        #expect(throws: SQLiteBackup.Refusal.noSource(dir.file("none.sqlite"))) {
            try SQLiteBackup.copy(from: dir.file("none.sqlite"), to: dir.file("x.sqlite"))
        }
        FileManager.default.createFile(atPath: dir.file("notes.txt"), contents: Data(String(repeating: "Hausaufgaben\n", count: 400).utf8))
        #expect(throws: SQLiteBackup.Refusal.notTeamsketch(dir.file("notes.txt"))) {
            try SQLiteBackup.copy(from: dir.file("notes.txt"), to: dir.file("y.sqlite"))
        }
        // A backup from a newer server is not put under this one.
        let newer = dir.file("newer.sqlite")
        try SQLiteBackup.copy(from: live, to: newer)
        let db = try SQLiteDatabase(path: newer)
        try await db.execute("INSERT INTO schemaVersion (version, appliedAt) VALUES (?, 0)", [.int(Migrations.newestVersion + 1)])
        await db.close()
        #expect(throws: SQLiteBackup.Refusal.newerServer(newer, version: Migrations.newestVersion + 1)) {
            try SQLiteBackup.copy(from: newer, to: dir.file("z.sqlite"))
        }
        // No copy that failed leaves a file behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("x.") || $0.hasPrefix("y.") || $0.hasPrefix("z.") }
        #expect(left.isEmpty, "\(left)")
    }
}

/// The SQLite file as an administrator finds it beside a stopped server.
@Suite struct SQLiteFileTests {
    /// A server that stopped leaves its database in one file: no -wal for
    /// an administrator to move aside with it (or forget to).
    @Test func aClosedDatabaseLeavesNoLogBesideIt() async throws {
        let path = FileManager.default.temporaryDirectory.path + "/closed-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await DatabaseLocation.sqlite(path: path).open(logger: Logger(label: "test"))
        _ = try await Accounts.createTeacher(PersonName("Frau Berg")!, password: "correct horse", database: database,
                                             hasher: testHasher)
        #expect(try await database.query("SELECT name FROM account").count == 1)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        await database.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    /// systemd's DynamicUser= keeps a service's state in /var/lib/private/NAME
    /// and makes /var/lib/NAME a link to it: a database folder that is a
    /// link opens.
    @Test func aDatabaseInALinkedFolderOpens() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        let real = base.appendingPathComponent("private/teamsketch-server")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let link = base.appendingPathComponent("teamsketch-server")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "private/teamsketch-server")
        let database = try await DatabaseLocation.sqlite(path: link.path + "/teamsketch.sqlite").open(logger: Logger(label: "test"))
        await database.close()
        #expect(FileManager.default.fileExists(atPath: real.path + "/teamsketch.sqlite"))
    }
}
