import Foundation
import LearnModel
import Testing
@testable import LearnStore

/// The same pupil's home, mounted from the school's file server on two
/// laptops in turn. The kernel here has no NFS client (no modules), so
/// SSHFS stands in: two FUSE mounts of one export, served by OpenSSH's
/// sftp-server over a pipe, each mount with its own page cache, as two
/// laptops have, and asking the server afresh at each open, as NFS does. The store finds the mount in the kernel's
/// table (`MountTable.live`, type fuse.sshfs) and keeps the rollback
/// journal there. Where SSHFS differs from NFS: its locks stay on the
/// mount that took them (NFS hands them to the server's lock manager), so
/// the locking test runs two processes on one mount, as two programs of
/// one laptop, and the laptops take turns.
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting with FUSE needs root, which make test and CI have"))
struct SSHFSHomeTests {
    /// An export and its mounts; unmounted and removed by `close`.
    final class FileServer {
        let folder: String
        var export: String { folder + "/export" }
        private var running: [Process] = []
        private var mounts: [String] = []

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("sshfs-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: export + "/mia", withIntermediateDirectories: true)
        }

        /// Mounts the export at `<folder>/<laptop>`, as that laptop's /home.
        func mount(on laptop: String) throws -> String {
            let point = folder + "/" + laptop
            try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
            let server = Process(), client = Process()
            let toClient = Pipe(), toServer = Pipe()
            server.executableURL = URL(fileURLWithPath: "/usr/lib/openssh/sftp-server")
            server.standardInput = toServer
            server.standardOutput = toClient
            client.executableURL = URL(fileURLWithPath: "/usr/bin/sshfs")
            // passive: SFTP over standard input and output, no ssh between.
            // No cache of names, sizes or times: each open asks the server,
            // as an NFS client does on open (close-to-open). With SSHFS's
            // defaults a laptop keeps a file's old size for up to 20 s
            // after another wrote it, and the store, seeing more pages in
            // the header than in the file, would call it damaged.
            client.arguments = ["-f", "-o", "passive,cache=no,attr_timeout=0,entry_timeout=0,negative_timeout=0",
                                ":" + export, point]
            client.standardInput = toClient
            client.standardOutput = toServer
            try server.run()
            try client.run()
            running += [client, server]
            mounts.append(point)
            // Mounted when the kernel's table shows it.
            let deadline = Date().addingTimeInterval(20)
            while MountTable.live.mount(holding: point + "/x")?.point != point {
                guard Date() < deadline, client.isRunning else {
                    throw TestSetupProblem("sshfs did not mount \(point)")
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return point
        }

        func close() {
            for point in mounts {
                let unmount = Process()
                unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
                unmount.arguments = [point]
                try? unmount.run()
                unmount.waitUntilExit()
            }
            for process in running where process.isRunning { process.terminate() }
            for process in running { process.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    struct TestSetupProblem: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    static let storePath = "/mia/.local/share/teamsketch/store.sqlite"

    static func stroke(_ n: Int) -> SketchOp {
        .addStroke(StoreFixture.stroke(author: "Mia", color: PenColor.red.rgba, width: PenWidth.fine.units, segments: 4,
                                       at: StoreFixture.t0 + Int64(n) * 1000, start: Point(Double(n) * 50, 40)))
    }

    @Test func aPupilsWorkFollowsHerFromLaptopToLaptop() throws {
        let server = try FileServer()
        defer { server.close() }
        let laptopA = try server.mount(on: "laptop-a"), laptopB = try server.mount(on: "laptop-b")
        #expect(MountTable.live.mount(holding: laptopA + Self.storePath)?.type == "fuse.sshfs")
        let meta = SketchMeta(name: "Haus", createdAt: storeDate(StoreFixture.t0))

        // Monday on laptop A.
        let monday = try LocalStore(path: laptopA + Self.storePath)
        #expect(monday.journal == .rollback)
        try monday.createSketch(meta)
        try monday.append(contentsOf: (0..<3).map(Self.stroke), to: meta.id)
        try monday.close()
        #expect(!storeFileExists(server.export + Self.storePath + "-wal"))

        // Tuesday on laptop B: the house is there; she draws on.
        let tuesday = try LocalStore(path: laptopB + Self.storePath)
        #expect(tuesday.journal == .rollback)
        #expect(try tuesday.loadSketch(meta.id).strokes.count == 3)
        try tuesday.append(contentsOf: (3..<40).map(Self.stroke), to: meta.id)
        try tuesday.rename(meta.id, to: "Mein Haus")
        let waiting = try tuesday.outboxCount()
        try tuesday.close()

        // Wednesday back on laptop A, whose caches saw Monday's file.
        let wednesday = try LocalStore(path: laptopA + Self.storePath)
        let house = try wednesday.loadSketch(meta.id)
        #expect(house.strokes.count == 40 && house.meta.name == "Mein Haus")
        #expect(try wednesday.outboxCount() == waiting)
        try wednesday.append(Self.stroke(40), to: meta.id)
        try wednesday.close()
        #expect(!storeFileExists(server.export + Self.storePath + "-wal"))
        #expect(try sqliteCheck(server.export + Self.storePath) == "ok 41")
    }

    /// A second program on the same laptop (a backup, another window)
    /// writing while the store does: the rollback journal's lock makes one
    /// wait for the other, through FUSE, and both writes are kept.
    @Test func aSecondProgramsWriteWaitsItsTurn() throws {
        let server = try FileServer()
        defer { server.close() }
        let laptop = try server.mount(on: "laptop-a")
        let path = laptop + Self.storePath
        let store = try LocalStore(path: path)
        let meta = SketchMeta(name: "Haus", createdAt: storeDate(StoreFixture.t0))
        try store.createSketch(meta)
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let ready = server.folder + "/other-holds-the-lock"
        let committing = server.folder + "/other-commits-at"
        other.arguments = ["-c", """
            import sqlite3, sys, time, pathlib
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN IMMEDIATE")
            c.execute("CREATE TABLE other (x)")
            pathlib.Path(sys.argv[2]).touch()
            time.sleep(1.5)
            pathlib.Path(sys.argv[3]).write_text(repr(time.time()))
            c.execute("COMMIT")
            """, path, ready, committing]
        try other.run()
        while !storeFileExists(ready) && other.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        try store.append(Self.stroke(0), to: meta.id)
        let appended = Date().timeIntervalSince1970
        other.waitUntilExit()
        // The store's write ended after the other program began to commit:
        // it waited for the lock, however long either took to get there.
        let written = try #require(storeFileBytes(committing), "the other program said when it began to commit")
        let commitStarted = try #require(Double(String(decoding: written, as: UTF8.self)))
        #expect(appended > commitStarted, "the store waited for the other program's commit")
        #expect(other.terminationStatus == 0)
        try store.close()
        #expect(try sqliteCheck(path) == "ok 1")
        #expect(try sqliteRun(path, "SELECT name FROM sqlite_master WHERE name = 'other'") == "other")
    }

    /// `PRAGMA integrity_check` and the strokes stored, by the sqlite3 tool.
    func sqliteCheck(_ path: String) throws -> String {
        let check = try sqliteRun(path, "PRAGMA integrity_check")
        let ops = try sqliteRun(path, "SELECT COUNT(*) FROM sketchOp")
        return check + " " + ops
    }

    func sqliteRun(_ path: String, _ sql: String) throws -> String {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        tool.arguments = ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])",
                          path, sql]
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        tool.standardOutput = try FileHandle(forWritingTo: out)
        try tool.run()
        tool.waitUntilExit()
        return String(decoding: try Data(contentsOf: out), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
