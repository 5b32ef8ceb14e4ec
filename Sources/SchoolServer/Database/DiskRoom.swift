import Foundation
import Logging
import NIOConcurrencyHelpers

/// How much of the disk under a SQLite database the server keeps for
/// itself. When the disk fills — a backup, a log, another program —
/// writing new work stops first (507), so signing in and reading, which
/// write a little (a token, a device remembered), go on: the reserve is
/// theirs. On top of it a ballast file is kept, given up when the disk is
/// full so those small writes still find room, and made again once space
/// returns.
public struct DiskLimits: Sendable, Hashable {
    /// Free bytes under which no new work is stored.
    public var reserve: Int64 = 64 << 20
    /// The ballast file's size.
    public var ballast: Int64 = 16 << 20

    public init() {}
}

/// Watches the free space of one folder against `DiskLimits`. `hasRoom()`
/// asks the file system every time (one `statvfs`, cheaper than the write
/// it guards). PostgreSQL keeps its files on its own server: there is no
/// folder to watch, and its own "disk full" error (53100) is what tells.
public final class DiskRoom: Sendable {
    public static let ballastName = "teamsketch-reserved-space"

    private let folder: String?
    private let limits: DiskLimits
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    private struct State {
        /// The last check found no room.
        var full = false
        /// A request is writing the ballast.
        var making = false
    }

    public init(folder: String?, limits: DiskLimits, logger: Logger) {
        self.folder = folder
        self.limits = limits
        self.logger = logger
    }

    private var ballastPath: String? { folder.map { $0 + "/" + Self.ballastName } }

    /// Free bytes in the folder, or nil when there is none to watch or it
    /// cannot be read.
    public func freeBytes() -> Int64? {
        guard let folder else { return nil }
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        let (bytes, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: Int64(clamping: info.f_frsize))
        return overflow ? .max : bytes
    }

    /// Whether new work may be stored now; says so in the log when that
    /// changes, and gives up or makes the ballast as space goes and comes.
    /// Once the ballast was given up, work waits until there is room for
    /// the ballast too: else the room it freed would go to new work, not
    /// to the sign-ins it was kept for.
    public func hasRoom() -> Bool {
        guard let free = freeBytes(), let ballast = ballastPath else { return true }
        let needed = limits.reserve + (limits.ballast > 0 && !FileManager.default.fileExists(atPath: ballast) && state.withLockedValue(\.full)
            ? limits.ballast : 0)
        let room = free >= needed
        let changed = state.withLockedValue { s in
            defer { s.full = !room }
            return s.full == room
        }
        if !room {
            try? FileManager.default.removeItem(atPath: ballast)
            if changed {
                logger.error("the disk under the database is full: new work is refused (507) until space is freed; signing in and reading go on",
                             metadata: ["free": "\(free >> 20) MiB", "reserve": "\(limits.reserve >> 20) MiB"])
            }
            return false
        }
        if changed {
            logger.notice("the disk under the database has room again: new work is stored", metadata: ["free": "\(free >> 20) MiB"])
        }
        keepBallast(free: free)
        return true
    }

    /// Makes the ballast file when there is room for it and the reserve;
    /// one request at a time makes it, under a name of its own.
    public func keepBallast(free: Int64? = nil) {
        guard limits.ballast > 0, let ballast = ballastPath, !FileManager.default.fileExists(atPath: ballast),
              let free = free ?? freeBytes(), free >= limits.reserve + limits.ballast,
              state.withLockedValue({ s in
                  defer { s.making = true }
                  return !s.making
              }) else { return }
        defer { state.withLockedValue { $0.making = false } }
        // Written, not truncated to size: a sparse file would hold no room.
        let partial = ballast + "." + UUID().uuidString
        guard FileManager.default.createFile(atPath: partial, contents: nil),
              let handle = FileHandle(forWritingAtPath: partial) else { return }
        let chunk = Data(count: 1 << 20)
        var written: Int64 = 0
        while written < limits.ballast {
            let part = chunk.prefix(Int(min(Int64(chunk.count), limits.ballast - written)))
            guard (try? handle.write(contentsOf: part)) != nil else { break }
            written += Int64(part.count)
        }
        try? handle.synchronize()
        try? handle.close()
        if written == limits.ballast {
            try? FileManager.default.moveItem(atPath: partial, toPath: ballast)
        }
        try? FileManager.default.removeItem(atPath: partial)
    }
}
