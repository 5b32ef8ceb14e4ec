import Foundation
import GRDB

/// A copy of the server's SQLite file that can be trusted, made while the
/// server runs and writes. SQLite's online backup copies every page inside
/// one read transaction, so the copy is the database at one moment: each
/// push in it whole or not at all. In WAL mode the server's writers are
/// never held up by it. Restoring is the same copy the other way, onto a
/// path where no database is yet (the server stopped and its old file moved
/// aside), so a restore can never overwrite the data it was meant to save;
/// it also moves the log's numbering on (`restore`).
public enum SQLiteBackup {
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case noSource(String)
        case destinationExists(String)
        case notTeamsketch(String)
        case damaged(String, String)
        case newerServer(String, version: Int64)

        public var description: String {
            switch self {
            case .noSource(let path): "there is no database at \(path)"
            case .destinationExists(let path):
                "\(path) already exists; nothing is overwritten (move it aside first)"
            case .notTeamsketch(let path): "\(path) is not a Teamsketch server's database"
            case .damaged(let path, let why): "\(path) is damaged: \(why)"
            case .newerServer(let path, let version):
                "\(path) was written by a newer server (schema \(version), this one knows \(Migrations.newestVersion)); use that server or a newer one"
            }
        }
    }

    /// Copies the database at `source` to `destination`, a new file. The
    /// copy is written beside `destination` first and moved into place only
    /// when whole and checked (SQLite's integrity check, a schema this
    /// server knows), so a copy cut short leaves nothing that looks like a
    /// backup. Returns the copy's schema version.
    @discardableResult
    public static func copy(from source: String, to destination: String) throws -> Int64 {
        try copy(from: source, to: destination) { _ in }
    }

    /// Puts a backup back as the database at `database`, a path where none
    /// is yet. What the lost server stored after the backup is gone, but the
    /// laptops' pull cursors still point past it: changes numbered on from
    /// where the backup stopped would sit below those cursors and never
    /// reach them. So the restored log numbers its next change
    /// `restoredSequenceGap` past the backup's last, more than a school
    /// writes between a backup and a failure.
    @discardableResult
    public static func restore(from backup: String, to database: String) throws -> Int64 {
        try copy(from: backup, to: database) { db in
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change") ?? 0
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'change'")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('change', ?)",
                           arguments: [last + restoredSequenceGap])
        }
    }

    static let restoredSequenceGap: Int64 = 1_000_000_000

    private static func copy(from source: String, to destination: String,
                             adjusting adjust: (Database) throws -> Void) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: source) else { throw Refusal.noSource(source) }
        // A log left beside the destination by a database moved aside
        // without it would be replayed into the copy on first open.
        for taken in [destination, destination + "-wal", destination + "-journal"]
        where FileManager.default.fileExists(atPath: taken) {
            throw Refusal.destinationExists(taken)
        }
        let partial = destination + ".partial"
        for leftover in [partial, partial + "-wal", partial + "-shm", partial + "-journal"] {
            try? FileManager.default.removeItem(atPath: leftover)
        }
        var reading = Configuration()
        reading.readonly = true
        // The server may hold the write lock for a moment.
        reading.busyMode = .timeout(10)
        do {
            let from = try DatabaseQueue(path: source, configuration: reading)
            defer { try? from.close() }
            _ = try version(of: from, source)
            let to = try DatabaseQueue(path: partial)
            do {
                try from.backup(to: to)
                try to.write { try adjust($0) }
                // One file, no journal beside it: what a backup is.
                try to.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
                let checked = try check(to, destination)
                try to.close()
                try FileManager.default.moveItem(atPath: partial, toPath: destination)
                return checked
            } catch {
                try? to.close()
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw Refusal.notTeamsketch(source)
        }
    }

    /// The copy's own check: SQLite finds every page and index sound, and
    /// the schema is one this server can open.
    private static func check(_ db: DatabaseQueue, _ path: String) throws -> Int64 {
        let verdict = try db.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        guard verdict == ["ok"] else { throw Refusal.damaged(path, verdict.prefix(3).joined(separator: "; ")) }
        return try version(of: db, path)
    }

    private static func version(of db: DatabaseQueue, _ path: String) throws -> Int64 {
        let found = try db.read { db -> Int64? in
            guard try db.tableExists("schemaVersion") else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT MAX(version) FROM schemaVersion")
        }
        guard let found else { throw Refusal.notTeamsketch(path) }
        guard found <= Migrations.newestVersion else { throw Refusal.newerServer(path, version: found) }
        return found
    }
}
