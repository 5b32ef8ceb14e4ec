import Foundation
import GRDB
import LearnModel
import Testing
import LearnStore

extension StoreTests {
    /// A file we cannot safely use must be refused with a clear error and
    /// left exactly as it was: it may be the user's only copy of their work,
    /// or another program's data.
    @Suite struct FileSafety {
        /// Opens `path`, expects `error`, and checks the file did not change.
        func expectRefused(_ path: String, _ error: StoreError,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
            let before = try #require(storeFileBytes(path), sourceLocation: sourceLocation)
            #expect(throws: error, sourceLocation: sourceLocation) { try LocalStore(path: path) }
            // A second attempt must fail the same way: nothing was "repaired".
            #expect(throws: error, sourceLocation: sourceLocation) { try LocalStore(path: path) }
            #expect(storeFileBytes(path) == before, "file bytes changed", sourceLocation: sourceLocation)
        }

        /// A store with enough ops to span several pages, closed cleanly.
        func makeStore(at path: String) throws {
            let store = try LocalStore(path: path)
            let doc = StoreFixture.document()
            try store.saveSketch(doc)
            for i in 0..<60 {
                let s = StoreFixture.stroke(author: "a", color: .white, width: 4, segments: 20, at: StoreFixture.t0 + Int64(i))
                try store.append(.addStroke(s), to: doc.meta.id)
            }
            try store.close()
        }

        @Test func randomBytesAreCorrupt() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/random.sqlite"
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
                try storeWriteFile(path, Data(bytes))
                try expectRefused(path, .corrupt(path: path))
                #expect(!storeFileExists(path + "-wal") && !storeFileExists(path + "-shm"))
            }
        }

        @Test func aShortTextFileIsCorrupt() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/notes.sqlite"
                try storeWriteFile(path, Data("hello".utf8))
                try expectRefused(path, .corrupt(path: path))
            }
        }

        @Test(arguments: [0.5, 0.9])
        func aTruncatedStoreIsCorrupt(fraction: Double) throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/t.sqlite"
                try makeStore(at: path)
                let full = try #require(storeFileBytes(path))
                #expect(full.count > 4 * 4096)
                // Cut on a page boundary (the header's page count catches it)
                // and mid-page (not a whole number of pages).
                let cut = fraction == 0.5 ? full.count / 2 / 4096 * 4096 : Int(Double(full.count) * fraction)
                try full.prefix(cut).write(to: URL(fileURLWithPath: path))
                try expectRefused(path, .corrupt(path: path))
            }
        }

        @Test func damagedPagesAreCorrupt() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/d.sqlite"
                try makeStore(at: path)
                var bytes = try #require(storeFileBytes(path))
                // Header intact, everything after the first page scrambled.
                for i in 4096..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
                try bytes.write(to: URL(fileURLWithPath: path))
                try expectRefused(path, .corrupt(path: path))
            }
        }

        @Test(arguments: ["DELETE", "WAL"])
        func anotherProgramsDatabaseIsForeign(journalMode: String) throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/other.db"
                do {
                    let db = try DatabaseQueue(path: path)
                    try db.write { db in
                        try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
                        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
                        try db.execute(sql: "INSERT INTO note (text) VALUES ('keep me')")
                    }
                    try db.close()
                }
                #expect(!storeFileExists(path + "-wal"))
                try expectRefused(path, .foreign(path: path))
                #expect(!storeFileExists(path + "-wal") && !storeFileExists(path + "-shm"), "no sidecar files left behind")
            }
        }

        /// A process that stopped while a checkpoint had copied page 1 but
        /// not yet the pages after it leaves a main file whose header counts
        /// more pages than the file holds; the WAL has the truth, and SQLite
        /// reads it. The sync fault test met exactly this after a failed push.
        @Test func aHeaderAheadOfItsFileIsFineWhileTheWALHoldsTheRest() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/live.sqlite", copy = dir + "/copy.sqlite"
                let store = try LocalStore(path: path)
                let doc = StoreFixture.document()
                try store.saveSketch(doc)
                // Copied while the store is open: the last commits are in the WAL only.
                for suffix in ["", "-wal", "-shm"] {
                    try storeWriteFile(copy + suffix, try #require(storeFileBytes(path + suffix)))
                }
                let expected = try store.loadSketch(doc.meta.id)
                try store.close()
                var bytes = try #require(storeFileBytes(copy))
                let pages = UInt32(bytes.count / 4096 + 1)
                let counter = bytes[24..<28]
                bytes.replaceSubrange(28..<32, with: withUnsafeBytes(of: pages.bigEndian) { Data($0) })
                bytes.replaceSubrange(92..<96, with: counter)
                try storeWriteFile(copy, bytes)
                #expect(storeFileExists(copy + "-wal"))
                let reopened = try LocalStore(path: copy)
                #expect(try reopened.loadSketch(doc.meta.id) == expected)
            }
        }

        @Test func anEmptyDatabaseClaimedByAnotherProgramIsForeign() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/claimed.db"
                do {
                    let db = try DatabaseQueue(path: path)
                    try db.write { db in try db.execute(sql: "PRAGMA application_id = 42") }
                    try db.close()
                }
                try expectRefused(path, .foreign(path: path))
            }
        }

        @Test func aForeignDatabaseWithPendingWALIsForeign() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/busy.db"
                let other = try DatabasePool(path: path)
                try other.write { db in
                    try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
                }
                #expect((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 > 0)
                let before = try #require(storeFileBytes(path))
                #expect(throws: StoreError.foreign(path: path)) { try LocalStore(path: path) }
                #expect(storeFileBytes(path) == before)
                try other.close()
            }
        }

        @Test func aDatabaseFromANewerAppIsTooNew() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/new.sqlite"
                try makeStore(at: path)
                do {
                    let db = try DatabaseQueue(path: path)
                    try db.write { db in
                        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v999')")
                        try db.execute(sql: "CREATE TABLE futureThing (id INTEGER PRIMARY KEY)")
                    }
                    try db.close()
                }
                try expectRefused(path, .tooNew(path: path))
            }
        }

        @Test func aDirectoryCannotBeOpened() throws {
            try withStoreTempDirectory { dir in
                #expect(throws: StoreError.cannotOpen(path: dir, reason: "it is a directory.")) {
                    try LocalStore(path: dir)
                }
            }
        }

        /// What SIGKILL leaves on disk is the main file plus the WAL, never
        /// checkpointed. Copying both while the store is still open makes
        /// that state without killing the test process.
        @Test func committedOpsSurviveAnAbruptEnd() throws {
            try withStoreTempDirectory { dir in
                let path = dir + "/live.sqlite"
                let store = try LocalStore(path: path)
                let doc = StoreFixture.document()
                try store.createSketch(doc.meta)
                for op in doc.ops { try store.append(op, to: doc.meta.id) }

                let walSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
                #expect(walSize > 0, "the ops must still be in the WAL for this test to mean anything")
                try FileManager.default.createDirectory(atPath: dir + "/crash", withIntermediateDirectories: true)
                let copy = dir + "/crash/live.sqlite"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")

                let recovered = try LocalStore(path: copy)
                #expect(try recovered.loadSketch(doc.meta.id) == doc)
                #expect(try recovered.outboxCount() == 1 + doc.ops.count)
                try recovered.close()
                try store.close()
            }
        }
    }
}
