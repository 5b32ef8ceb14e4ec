import Foundation
import LearnModel
import Testing
@testable import LearnStore

/// A laptop's store as an earlier release left it upgrades when today's app
/// opens it, with nothing lost. Each fixture (Tests/store-fixtures/store-vN.*)
/// was made by the store of the release whose newest migration is vN,
/// through that store's API (scripts/make-store-fixture.sh): beside it, the
/// `StoreSnapshot` that release took: store-v4 by 9daa72e (before grades
/// kept their history), v5 by 8a2dce0, v6 by 20010a6, v7 by ff58d27, v8
/// (tasks and answers) by 7befd2e.
@Suite struct StoreUpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("store-fixtures")

    /// Every fixture by the migration that made it, oldest first.
    static let fixtures: [Int] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix("store-v"), name.hasSuffix(".sqlite") else { return nil }
            return Int(name.dropFirst("store-v".count).dropLast(".sqlite".count))
        }.sorted()
    }()

    static func todaysMigrations() throws -> [String] {
        try LocalStore.inMemory().appliedMigrations()
    }

    /// The snapshot as JSON text with sorted keys, so two compare as text.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted]),
               as: UTF8.self)
    }

    @Test func todaysStoreSchemaHasItsFixture() throws {
        #expect(Self.fixtures.count >= 2)
        #expect(try Self.todaysMigrations().last == "v\(Self.fixtures.last ?? 0)",
                "the store's newest migration has no fixture: run scripts/make-store-fixture.sh and commit it")
    }

    @Test(arguments: fixtures)
    func anEarlierReleasesStoreUpgradesWithNothingLost(_ version: Int) throws {
        let fixture = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.folder.appendingPathComponent("store-v\(version).json"))) as? [String: Any])
        let before = try #require(fixture["snapshot"])
        #expect((fixture["migrations"] as? [String])?.last == "v\(version)")
        try withStoreTempDirectory { dir in
            let path = dir + "/store.sqlite"
            try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("store-v\(version).sqlite"),
                                             to: URL(fileURLWithPath: path))
            let store = try LocalStore(path: path)
            #expect(try store.appliedMigrations() == Self.todaysMigrations())
            #expect(try Self.canonical(StoreSnapshot.take(store)) == Self.canonical(before))
            // The fixture has something to lose.
            let snapshot = try StoreSnapshot.take(store)
            #expect((snapshot["sketches"] as? [Any])?.count == 1 && (snapshot["outbox"] as? [Any])?.isEmpty == false)
            #expect((snapshot["grades"] as? [String: Any])?.count == 2 && (snapshot["unfiled"] as? Int) == 1)
            #expect((snapshot["cursor"] as? Int64) == 42)

            // And the laptop goes on: Mia draws on in her house, it waits to
            // be sent, and her teacher's next edit keeps the one before.
            let haus = try #require(try store.findSketch(named: "Mein Haus"))
            let waiting = try store.outboxCount()
            let stroke = Stroke(author: "Mia", color: PenColor.red.rgba, width: PenWidth.fine.units,
                                start: Point(500, 500), segments: [], startedAt: Date(), endedAt: Date())
            try store.append(.addStroke(stroke), to: haus.id)
            #expect(try store.loadSketch(haus.id).strokes.count == 4)
            #expect(try store.outboxCount() == waiting + 1)
            let (id, kept) = try #require(try store.allGrades().first { $0.value.target == .sketch })
            var edit = kept
            edit.grade = 2; edit.comment = "Doch nur gut"; edit.at += 1000
            try store.setGrade(id: try #require(UUID(uuidString: id)), edit)
            #expect(try store.gradeHistory(replacedBy: edit).map(\.comment).first == "Sehr gut")
            // A sketch of before counts as drawn alone: the pupil who has it
            // may throw it away.
            #expect(haus.startedBy == .alone)
            try store.close()
            // A second start finds nothing left to upgrade and the stroke there.
            let again = try LocalStore(path: path)
            #expect(try again.loadSketch(haus.id).strokes.count == 4)
            try again.close()
        }
    }
}
