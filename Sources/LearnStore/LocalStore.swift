import Foundation
import LearnModel
import GRDB

/// The device's own database: the source of truth for the user's sketches,
/// fully usable without a server: a school without one loses nothing.
///
/// Files are SQLite in WAL mode (the rollback journal on a network file
/// system, `Journal`) with `synchronous = FULL`: every commit is
/// synced to the disk before it returns, so a finished stroke survives a power
/// cut (a laptop whose battery runs out), not only a killed process. The cost
/// is one fsync per stroke; `make bench` measures it (`store_append_*`). Every change writes its domain rows and an outbox row
/// in one transaction, so sync can never miss or invent a change.
///
/// All methods are synchronous and thread-safe (GRDB serializes writes and
/// lets reads run concurrently).
public final class LocalStore: Sendable {
    /// The database file, or nil for an in-memory store.
    public let path: String?
    let writer: any DatabaseWriter
    let clock: StoreClock
    let ids: UUIDv7Generator

    /// `PRAGMA application_id` of every Teamsketch database.
    public static let applicationID = StoreSchema.applicationID
    /// Schema migrations this version knows, oldest first.
    public static var knownMigrations: [String] { StoreSchema.migrator.migrations }

    /// Opens or creates the database at `path`, creating missing parent
    /// directories.
    ///
    /// An existing file is first examined without writing to it; if it is
    /// damaged, belongs to another program or was written by a newer app, this
    /// throws `StoreError.corrupt`, `.foreign` or `.tooNew` and the file stays
    /// byte for byte as it was.
    /// How hard a commit is pushed to the disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// Synced on every commit: survives a power cut. What the app uses.
        case powerCut
        /// Synced at checkpoints only: survives a crash of the app, may lose
        /// the last commits when the power goes. For benchmarks and tests.
        case appCrash
    }

    /// How the store keeps a commit safe until it is in the file.
    public enum Journal: String, Sendable {
        /// The write-ahead log: readers never wait for the writer. On a
        /// local disk.
        case writeAheadLog
        /// The rollback journal: each commit is in the database file when
        /// it returns, and nothing depends on memory two machines share.
        /// On a network file system (a school's network homes), where the
        /// write-ahead log's shared-memory index would let a second laptop
        /// of the same pupil read a stale copy or break the file.
        case rollback
    }

    /// The journal this store was opened with.
    public let journal: Journal

    /// `fileSystems`: where to learn whether `path` is on a network file
    /// system (tests pass their own table).
    public convenience init(path: String, clock: StoreClock = .system, durability: Durability = .powerCut,
                            fileSystems: MountTable = .live) throws {
        _ = try StoreFileCheck.check(path: path)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "its folder cannot be created.")
            }
        }
        let level = durability == .powerCut ? "FULL" : "NORMAL"
        do {
            if fileSystems.isOnNetwork(path) {
                let queue = try DatabaseQueue(path: path, configuration: Self.configuration())
                try queue.writeWithoutTransaction { db in
                    // A file a local disk left in WAL mode goes back to the
                    // rollback journal here (the log is folded in first).
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                    try db.execute(sql: "PRAGMA synchronous = \(level)")
                }
                try self.init(writer: queue, path: path, clock: clock, journal: .rollback)
            } else {
                let pool = try DatabasePool(path: path, configuration: Self.configuration())
                // Set on the one writer connection after GRDB's own WAL set-up,
                // which chooses NORMAL for every pool.
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = \(level)") }
                try self.init(writer: pool, path: path, clock: clock, journal: .writeAheadLog)
            }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    /// A store that lives only as long as the object, for "continue without
    /// saving" and for tests.
    public static func inMemory(clock: StoreClock = .system) throws -> LocalStore {
        try LocalStore(writer: DatabaseQueue(configuration: configuration()), path: nil, clock: clock, journal: .rollback)
    }

    /// Opens the store at `StoreLocation.defaultPath(environment:)`.
    public static func openDefault(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   clock: StoreClock = .system) throws -> LocalStore {
        try LocalStore(path: StoreLocation.defaultPath(environment: environment), clock: clock)
    }

    private init(writer: any DatabaseWriter, path: String?, clock: StoreClock, journal: Journal) throws {
        self.writer = writer
        self.journal = journal
        self.path = path
        self.clock = clock
        self.ids = UUIDv7Generator(now: clock.now)
        // The id is claimed before any table exists, so a crash during the
        // first migration leaves a file we still recognise as ours.
        try writer.write { db in
            if try Int32.fetchOne(db, sql: "PRAGMA application_id") != StoreSchema.applicationID {
                try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
            }
        }
        try StoreSchema.migrator.migrate(writer)
    }

    private static func configuration() -> Configuration {
        var config = Configuration()
        config.label = "Teamsketch"
        // Another app instance (or the CLI) may hold the write lock briefly.
        config.busyMode = .timeout(5)
        return config
    }

    /// The `PRAGMA synchronous` level commits run with (2 = FULL, 1 = NORMAL).
    public func synchronousLevel() throws -> Int {
        try writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Closes the database; later calls throw. Also happens on deinit.
    public func close() throws {
        try writer.close()
    }

    /// Identifiers of the applied schema migrations, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try StoreSchema.migrator.appliedMigrations(db) }
    }
}
