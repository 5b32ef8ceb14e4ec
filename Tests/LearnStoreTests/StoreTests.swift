import Foundation
import GRDB
import LearnModel
import Testing
import LearnStore

@Suite struct StoreTests {
    @Test func documentRoundTripPreservesEveryOp() throws {
        let store = try LocalStore.inMemory()
        let doc = StoreFixture.document()
        try store.createSketch(doc.meta)
        for op in doc.ops { try store.append(op, to: doc.meta.id) }

        let loaded = try store.loadSketch(doc.meta.id)
        #expect(loaded.ops == doc.ops)
        #expect(loaded.meta == doc.meta)
        #expect(loaded.strokes == doc.strokes)
        #expect(loaded == doc)
        #expect(loaded.strokes.count == 1)
        #expect(loaded.strokes(afterOps: 3).map(\.author) == ["anna", "ben", "chris"])
    }

    @Test func datesKeepMillisecondPrecision() throws {
        let store = try LocalStore.inMemory()
        let meta = SketchMeta(name: "Zeit", createdAt: Date(timeIntervalSince1970: 1_718_000_000.123_456))
        try store.createSketch(meta)
        let start = Date(timeIntervalSince1970: 1_718_000_001.987_654)
        let end = Date(timeIntervalSinceReferenceDate: 740_000_000.000_4)
        var s = StoreFixture.stroke(author: "x", color: .white, width: 4, segments: 2, at: 0)
        s.startedAt = start
        s.endedAt = end
        try store.append(.addStroke(s), to: meta.id)
        let loaded = try store.loadSketch(meta.id)
        let stroke = try #require(loaded.strokes.first)
        #expect(abs(stroke.startedAt.timeIntervalSince(start)) <= 0.0005)
        #expect(abs(stroke.endedAt.timeIntervalSince(end)) <= 0.0005)
        #expect(abs(loaded.meta.createdAt.timeIntervalSince(meta.createdAt)) <= 0.0005)
        #expect(stroke.segments == s.segments)
    }

    @Test func saveSketchInsertsWholeDocumentButNeverReplaces() throws {
        let store = try LocalStore.inMemory()
        let doc = StoreFixture.document()
        try store.saveSketch(doc)
        #expect(try store.loadSketch(doc.meta.id) == doc)
        #expect(try store.outboxCount() == 1 + doc.ops.count)
        #expect(try store.sketches().map(\.opCount) == [doc.ops.count])

        var other = StoreFixture.document(name: "Anders")
        other.meta.id = doc.meta.id
        #expect(throws: StoreError.duplicateSketch(doc.meta.id)) { try store.saveSketch(other) }
        #expect(throws: StoreError.duplicateSketch(doc.meta.id)) { try store.createSketch(other.meta) }
        #expect(try store.loadSketch(doc.meta.id) == doc)
        #expect(try store.outboxCount() == 1 + doc.ops.count)
    }

    @Test func migrationsRunOnANewFileAndAreRecorded() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/nested/folder/teamsketch.sqlite"
            let store = try LocalStore(path: path)
            #expect(LocalStore.knownMigrations == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
            #expect(try store.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
            try store.close()

            let db = try DatabaseQueue(path: path)
            defer { try? db.close() }
            try db.read { db throws in
                #expect(try Int32.fetchOne(db, sql: "PRAGMA application_id") == LocalStore.applicationID)
                #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
                #expect(try db.tableExists("sketch") && db.tableExists("sketchOp") && db.tableExists("outbox"))
                #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 0)
                let fks = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(sketchOp)")
                #expect(fks.map { $0["on_delete"] as String } == ["CASCADE"])
                let pk = try db.primaryKey("sketchOp").columns
                #expect(pk == ["sketchId", "seq"])
            }
        }
    }

    @Test func anEmptyExistingFileBecomesAStore() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/empty.sqlite"
            try storeWriteFile(path, Data())
            let store = try LocalStore(path: path)
            #expect(try store.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
        }
    }

    @Test func reopeningKeepsData() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/teamsketch.sqlite"
            let doc = StoreFixture.document()
            do {
                let store = try LocalStore(path: path)
                try store.createSketch(doc.meta)
                for op in doc.ops { try store.append(op, to: doc.meta.id) }
                try store.setThumbnail(Data([0x89, 0x50, 0x4E, 0x47]), for: doc.meta.id)
                try store.close()
            }
            #expect(!storeFileExists(path + "-wal"), "a clean close checkpoints the WAL")
            let reopened = try LocalStore(path: path)
            #expect(try reopened.loadSketch(doc.meta.id) == doc)
            #expect(try reopened.sketches().first?.thumbnail == Data([0x89, 0x50, 0x4E, 0x47]))
            #expect(try reopened.outboxCount() == 1 + doc.ops.count)
            #expect(try reopened.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
        }
    }

    @Test func everyChangeWritesOneOutboxRow() throws {
        let clock = ManualStoreClock()
        let store = try LocalStore.inMemory(clock: clock.clock)
        let doc = StoreFixture.document()
        try store.createSketch(doc.meta)
        for op in doc.ops {
            clock.advance(milliseconds: 5)
            try store.append(op, to: doc.meta.id)
        }
        clock.advance(milliseconds: 5)
        try store.rename(doc.meta.id, to: "Neuer Name")
        try store.setThumbnail(Data([1, 2, 3]), for: doc.meta.id)
        try store.deleteSketch(doc.meta.id)

        let rows = try store.pendingOutbox(limit: 1000)
        // A thumbnail is drawn from the ops everywhere: it is not a change to send.
        #expect(try store.outboxCount() == 1 + doc.ops.count + 2)
        #expect(rows.count == 1 + doc.ops.count + 2)
        #expect(rows.map(\.entity) == [.sketch] + Array(repeating: .sketchOp, count: doc.ops.count) + [.sketch, .sketch])
        #expect(Set(rows.map(\.entityId)) == [doc.meta.id.uuidString.lowercased()])

        // In the order they were made; a sketch's creation and its ops have
        // the ids every device gives them, the other changes ids with their time.
        let times = rows.map(\.createdAt)
        #expect(times == times.sorted())
        #expect(times.first == storeDate(1_718_000_000_000))
        #expect(times.last == clock.now)
        #expect(rows.first?.opId == SketchOpIdentity.creation(of: doc.meta.id))
        #expect(rows.filter { $0.entity == .sketchOp }.map(\.opId) == doc.ops.map { SketchOpIdentity.id(of: $0, in: doc.meta.id) })
        #expect(rows.suffix(2).map { UUIDv7Generator.timestamp(of: $0.opId) } == rows.suffix(2).map(\.createdAt))

        // Op payloads are self-describing JSON.
        let kinds = try rows.filter { $0.entity == .sketchOp }.map { row in
            try #require(JSONSerialization.jsonObject(with: row.payload) as? [String: Any])["kind"] as? String
        }
        #expect(kinds == ["addStroke", "addStroke", "addStroke", "eraseStroke", "clear", "addStroke"])
        let changes = try rows.filter { $0.entity == .sketch }.map { row in
            try #require(JSONSerialization.jsonObject(with: row.payload) as? [String: Any])["change"] as? String
        }
        #expect(changes == ["create", "rename", "delete"])
    }

    @Test func deleteIsATombstone() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/t.sqlite"
            let store = try LocalStore(path: path)
            let doc = StoreFixture.document()
            let keep = SketchMeta(name: "Bleibt")
            try store.saveSketch(doc)
            try store.createSketch(keep)
            let before = try store.outboxCount()

            try store.deleteSketch(doc.meta.id)
            #expect(try store.sketches().map(\.id) == [keep.id])
            #expect(try store.findSketch(named: doc.meta.name) == nil)
            #expect(throws: StoreError.sketchNotFound(doc.meta.id)) { try store.loadSketch(doc.meta.id) }
            #expect(throws: StoreError.sketchNotFound(doc.meta.id)) {
                try store.append(.clear(by: "x", at: Date()), to: doc.meta.id)
            }
            #expect(throws: StoreError.sketchNotFound(doc.meta.id)) { try store.rename(doc.meta.id, to: "x") }
            #expect(throws: StoreError.duplicateSketch(doc.meta.id)) { try store.createSketch(doc.meta) }
            #expect(try store.hasSketch(doc.meta.id), "a deleted id stays taken")
            #expect(try !store.hasSketch(UUID()))
            #expect(try store.outboxCount() == before + 1)
            try store.deleteSketch(doc.meta.id) // idempotent
            #expect(try store.outboxCount() == before + 1)
            try store.close()

            // The row and its ops are still there, marked deleted.
            let db = try DatabaseQueue(path: path)
            defer { try? db.close() }
            try db.read { db throws in
                let id = doc.meta.id.uuidString.lowercased()
                #expect(try Int64.fetchOne(db, sql: "SELECT deletedAt FROM sketch WHERE id = ?", arguments: [id]) != nil)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sketchOp WHERE sketchId = ?", arguments: [id]) == doc.ops.count)
            }
        }
    }

    @Test func sketchesAreListedMostRecentlyModifiedFirst() throws {
        let clock = ManualStoreClock()
        let store = try LocalStore.inMemory(clock: clock.clock)
        let a = SketchMeta(name: "A", guides: .lined), b = SketchMeta(name: "B"), c = SketchMeta(name: "C")
        for meta in [a, b, c] {
            clock.advance(milliseconds: 1000)
            try store.createSketch(meta)
        }
        #expect(try store.sketches().map(\.name) == ["C", "B", "A"])

        clock.advance(milliseconds: 1000)
        let s = StoreFixture.stroke(author: "anna", color: .white, width: 4, segments: 1, at: StoreFixture.t0)
        try store.append(.addStroke(s), to: a.id)
        #expect(try store.sketches().map(\.name) == ["A", "C", "B"])

        clock.advance(milliseconds: 1000)
        try store.rename(b.id, to: "B2")
        try store.setThumbnail(Data([9]), for: c.id) // a preview does not reorder
        let list = try store.sketches()
        #expect(list.map(\.name) == ["B2", "A", "C"])
        #expect(list.map(\.opCount) == [0, 1, 0])
        #expect(list.map(\.thumbnail) == [nil, nil, Data([9])])
        #expect(list[1].guides == .lined)
        #expect(list[0].modifiedAt == clock.now)
        #expect(list[1].createdAt == a.createdAt.roundedToStoreMilliseconds)
    }

    @Test func findSketchMatchesExactNameNewestFirst() throws {
        let clock = ManualStoreClock()
        let store = try LocalStore.inMemory(clock: clock.clock)
        let old = SketchMeta(name: "Haus"), new = SketchMeta(name: "Haus"), other = SketchMeta(name: "Haus 2")
        for meta in [old, new, other] {
            clock.advance(milliseconds: 10)
            try store.createSketch(meta)
        }
        #expect(try store.findSketch(named: "Haus")?.id == new.id)
        #expect(try store.findSketch(named: "haus") == nil)
        #expect(try store.findSketch(named: "Hau") == nil)
        #expect(try store.findSketch(named: "Haus 2")?.id == other.id)

        clock.advance(milliseconds: 10)
        try store.append(.clear(by: "t", at: clock.now), to: old.id)
        #expect(try store.findSketch(named: "Haus")?.id == old.id)
        try store.deleteSketch(old.id)
        #expect(try store.findSketch(named: "Haus")?.id == new.id)
    }

    @Test func changesToUnknownSketchesThrow() throws {
        let store = try LocalStore.inMemory()
        let id = UUID()
        #expect(throws: StoreError.sketchNotFound(id)) { try store.append(.clear(by: "t", at: Date()), to: id) }
        #expect(throws: StoreError.sketchNotFound(id)) { try store.rename(id, to: "x") }
        #expect(throws: StoreError.sketchNotFound(id)) { try store.setThumbnail(Data(), for: id) }
        #expect(throws: StoreError.sketchNotFound(id)) { try store.deleteSketch(id) }
        #expect(throws: StoreError.sketchNotFound(id)) { try store.loadSketch(id) }
        #expect(try store.outboxCount() == 0)
    }

    @Test func concurrentAppendsGetDistinctSequenceNumbers() async throws {
        let store = try LocalStore.inMemory()
        let meta = SketchMeta(name: "Klasse")
        try store.createSketch(meta)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for author in 0..<4 {
                group.addTask {
                    for i in 0..<25 {
                        let s = StoreFixture.stroke(author: "p\(author)", color: .white, width: 4, segments: 2,
                                                    at: StoreFixture.t0 + Int64(i))
                        try store.append(.addStroke(s), to: meta.id)
                    }
                }
            }
            try await group.waitForAll()
        }
        let doc = try store.loadSketch(meta.id)
        #expect(doc.ops.count == 100)
        #expect(try store.outboxCount() == 101)
        for author in 0..<4 {
            let mine = doc.strokes.filter { $0.author == "p\(author)" }.map(\.startedAt)
            #expect(mine == mine.sorted(), "each writer's ops keep their order")
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "/data/x", "HOME": "/home/p"])
            == "/data/x/teamsketch/teamsketch.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["HOME": "/home/p"])
            == "/home/p/.local/share/teamsketch/teamsketch.sqlite")
        // Relative or empty XDG_DATA_HOME is invalid per the XDG spec.
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "rel/dir", "HOME": "/home/p"])
            == "/home/p/.local/share/teamsketch/teamsketch.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/p"])
            == "/home/p/.local/share/teamsketch/teamsketch.sqlite")
    }

    @Test func openDefaultCreatesTheDataDirectory() throws {
        try withStoreTempDirectory { dir in
            let store = try LocalStore.openDefault(environment: ["XDG_DATA_HOME": dir + "/xdg"])
            #expect(store.path == dir + "/xdg/teamsketch/teamsketch.sqlite")
            try store.createSketch(SketchMeta(name: "x"))
            try store.close()
            #expect(storeFileExists(dir + "/xdg/teamsketch/teamsketch.sqlite"))
        }
    }

    @Test func errorDescriptionsAreReadable() {
        let errors: [StoreError] = [
            .corrupt(path: "/p/a.sqlite"), .foreign(path: "/p/a.sqlite"), .tooNew(path: "/p/a.sqlite"),
            .cannotOpen(path: "/p/a.sqlite", reason: "permission denied"),
        ]
        for error in errors {
            #expect(error.description.contains("/p/a.sqlite"))
            #expect(error.localizedDescription == error.description)
        }
        #expect(StoreError.tooNew(path: "f").description.contains("newer version"))
        #expect(StoreError.corrupt(path: "f").description.contains("unchanged"))
    }
}
