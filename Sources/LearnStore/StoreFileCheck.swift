import Foundation
import LearnModel
import GRDB

/// Decides whether an existing file may be opened read-write, before anything
/// is written to it. Opening a file read-write can already change it (journal
/// mode switch, WAL recovery, migrations), so a file that is damaged, someone
/// else's, or from a newer app must be recognised with read-only means.
enum StoreFileCheck {
    enum Verdict: Equatable {
        /// Nothing worth keeping: no file, an empty file, or an SQLite file
        /// without tables or application id. Safe to create our schema.
        case fresh
        /// Our file at a schema version we know (maybe older: migrate it).
        case ours
    }

    static let magic = Array("SQLite format 3\0".utf8)

    static func check(path: String) throws -> Verdict {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return .fresh }
        if isDirectory.boolValue {
            throw StoreError.cannotOpen(path: path, reason: "it is a directory.")
        }
        // Committed transactions may still sit in the WAL; then the main
        // file's header is stale and only SQLite can tell what is in there.
        let walSize = (try? fm.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        let header: [UInt8]
        let size: Int
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            header = Array(try handle.read(upToCount: 512) ?? Data())
            size = Int(try handle.seekToEnd())
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "it cannot be read.")
        }
        if size == 0 {
            return walSize > 0 ? try inspectWithSQLite(path: path) : .fresh
        }
        let info = try HeaderInfo(header, fileSize: size, hasWAL: walSize > 0, path: path)
        if walSize == 0 && info.applicationID != StoreSchema.applicationID {
            // Decided from bytes alone: even a read-only SQLite connection
            // leaves -wal/-shm files beside a WAL-mode database.
            guard info.applicationID == 0 && info.schemaIsEmpty else {
                throw StoreError.foreign(path: path)
            }
            return .fresh
        }
        return try inspectWithSQLite(path: path)
    }

    /// Read-only: SQLite cannot write the main file through this connection.
    private static func inspectWithSQLite(path: String) throws -> Verdict {
        var config = Configuration()
        config.readonly = true
        config.label = "Teamsketch.check"
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in
                let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                if appID != StoreSchema.applicationID {
                    let objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
                    guard appID == 0 && objects == 0 else { throw StoreError.foreign(path: path) }
                    return .fresh
                }
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard problems == ["ok"] else { throw StoreError.corrupt(path: path) }
                if try StoreSchema.migrator.hasBeenSuperseded(db) {
                    throw StoreError.tooNew(path: path)
                }
                return .ours
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    /// The fields of the 100-byte SQLite header we rely on, validated the way
    /// SQLite itself would reject a file (see https://sqlite.org/fileformat.html).
    struct HeaderInfo {
        var pageSize: Int
        var applicationID: Int32
        /// Page 1 holds `sqlite_master`; an empty leaf there means no tables.
        var schemaIsEmpty: Bool

        init(_ h: [UInt8], fileSize: Int, hasWAL: Bool, path: String) throws {
            func u16(_ o: Int) -> Int { Int(h[o]) << 8 | Int(h[o + 1]) }
            func u32(_ o: Int) -> UInt32 { h[o..<o + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            let corrupt = StoreError.corrupt(path: path)
            guard h.count >= 108, Array(h[0..<16]) == StoreFileCheck.magic else { throw corrupt }
            let rawPageSize = u16(16)
            pageSize = rawPageSize == 1 ? 65536 : rawPageSize
            guard (512...65536).contains(pageSize), pageSize & (pageSize - 1) == 0,
                  (1...2).contains(h[18]), (1...2).contains(h[19]),
                  h[21] == 64, h[22] == 32, h[23] == 32
            else { throw corrupt }
            // A database file is whole pages; the header's page count is
            // trustworthy when its change counter matches "version valid for"
            // and no WAL is beside it: a checkpoint cut short copies page 1
            // before the pages it counts, and SQLite then reads them from the WAL.
            guard fileSize >= pageSize, fileSize % pageSize == 0 else { throw corrupt }
            let pageCount = Int(u32(28))
            if !hasWAL && pageCount > 0 && u32(24) == u32(92) && fileSize < pageCount * pageSize { throw corrupt }
            applicationID = Int32(bitPattern: u32(68))
            schemaIsEmpty = h[100] == 0x0D && u16(103) == 0
        }
    }
}

extension StoreError {
    /// Maps SQLite's verdict on a file to what the user can act on.
    init(_ error: DatabaseError, path: String) {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self = .corrupt(path: path)
        default:
            self = .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}
