import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import TeamsketchDesktop
import LearnRender
import LearnStore

/// `export NAME OUT` reads the local store at its XDG location and leaves it
/// exactly as it was.
@Suite struct StoredSketchExportTests {
    private let exe = Run.appExecutable

    private func storePath(in home: String) -> String {
        StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": home])
    }

    /// Every file of the store (database, WAL, shared memory) with its bytes.
    private func storeFiles(in home: String) throws -> [String: [UInt8]] {
        let folder = (storePath(in: home) as NSString).deletingLastPathComponent
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix("-shm") {
            files[name] = try FileBytes.read(folder + "/" + name)
        }
        return files
    }

    @Test func exportsAStoredSketchByNameWithoutChangingTheStore() async throws {
        let dir = TempDir()
        do {
            let store = try LocalStore(path: storePath(in: dir.path))
            try store.saveSketch(Fixture.sketch(name: "Our Garden"))
            try store.saveSketch(Fixture.sketch(guides: .lined, name: "Something else"))
            try store.close()
        }
        let before = try storeFiles(in: dir.path)
        let out = dir.file("garden.png")
        let r = try await Run.program(exe, ["export", "Our Garden", out], environment: ["XDG_DATA_HOME": dir.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let image = try CairoImage(png: FileBytes.read(out))
        #expect(image.pixel(x: 600, y: 300).r == 0xE3)
        // The database and any WAL content are untouched. (A reader of a WAL
        // database makes SQLite leave an empty -wal beside it; that holds no data.)
        let after = try storeFiles(in: dir.path)
        let dbName = StoreLocation.fileName, walName = dbName + "-wal"
        #expect(after[dbName] == before[dbName], "the database file must stay byte for byte as it was")
        #expect(after[walName] == before[walName] || after[walName] == [], "the WAL must not gain content")
        #expect(Set(after.keys).subtracting([walName]) == Set(before.keys).subtracting([walName]))
    }

    @Test func unknownNameInAnExistingStoreIsReported() async throws {
        let dir = TempDir()
        do {
            let store = try LocalStore(path: storePath(in: dir.path))
            try store.saveSketch(Fixture.sketch(name: "Our Garden"))
            try store.close()
        }
        let r = try await Run.program(exe, ["export", "Our Gardn", dir.file("x.png")],
                                environment: ["XDG_DATA_HOME": dir.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains(
            "There is no file named Our Gardn, and no sketch of that name in the sketch store at \(storePath(in: dir.path))."))
    }

    @Test func missingStoreIsReportedAndNotCreated() async throws {
        let dir = TempDir()
        let r = try await Run.program(exe, ["export", "Our Garden", dir.file("x.png")],
                                environment: ["XDG_DATA_HOME": dir.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains(
            "There is no file named Our Garden, and no sketch store at \(storePath(in: dir.path))"))
        #expect(!FileBytes.exists(storePath(in: dir.path)))
    }

    @Test func damagedStoreGetsAClearMessageAndIsLeftAlone() async throws {
        let dir = TempDir()
        let path = storePath(in: dir.path)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let junk = Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xAB, count: 4000)
        try FileBytes.write(junk, to: path)
        let r = try await Run.program(exe, ["export", "Our Garden", dir.file("x.png")],
                                environment: ["XDG_DATA_HOME": dir.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("Cannot read the sketch store at \(path): it is damaged or not a Teamsketch database."),
                "stderr: \(r.stderr)")
        #expect(try FileBytes.read(path) == junk)
    }
}
