import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@Suite struct SketchLibraryTests {
    func library() throws -> (SketchLibrary, LocalStore, Tally) {
        let store = try LocalStore.inMemory()
        let rounds = Tally()
        return (SketchLibrary.live(store) { rounds.add() }, store, rounds)
    }

    @Test func aSketchThrownAwayGoesToDeletedAndComesBackWithEveryLineAndEachChangeIsSynced() throws {
        let (library, store, rounds) = try library()
        let doc = document(SketchMeta(name: "Haus"), ops: 3)
        try store.saveSketch(doc)
        try library.throwAway(doc.meta.id)
        #expect(try library.list().isEmpty)
        #expect(try library.deleted(Date()).map(\.name) == ["Haus"])
        try library.bringBack(doc.meta.id)
        #expect(try library.list().map(\.name) == ["Haus"])
        #expect(try library.load(doc.meta.id).ops.count == 3)
        #expect(rounds.count == 2)
    }

    @Test func aPupilSeesTheSketchesTheyDrewInAndEmptyOnes() throws {
        let (library, store, _) = try library()
        let mine = SketchDocument(meta: SketchMeta(name: "Mias"), ops: [strokeOp(1, author: "Mia")])
        let bens = SketchDocument(meta: SketchMeta(name: "Bens"), ops: [strokeOp(2, author: "Ben")])
        let empty = SketchDocument(meta: SketchMeta(name: "Leer"))
        for d in [mine, bens, empty] { try store.saveSketch(d) }
        let owned = library.owned(by: "Mia", among: try library.list())
        #expect(Set(owned.map(\.name)) == ["Mias", "Leer"])
        #expect(library.authors(of: [mine.meta.id, UUID()]).map(\.names) == [["Mia"], []],
                "an unreadable sketch has nobody")
    }

    @Test func onlyTheFirstMissingThumbnailsAskedForAreDrawnTheRestWaitForTheGallery() throws {
        let (library, store, _) = try library()
        for name in ["A", "B", "C"] { try store.saveSketch(document(SketchMeta(name: name), ops: 1)) }
        let shown = library.withThumbnails(try library.list(), first: 2)
        #expect(shown.filter { $0.thumbnail != nil }.count == 2)
        #expect(shown.prefix(2).allSatisfy { $0.thumbnail != nil }, "the first cards are complete")
        #expect(try library.list().filter { $0.thumbnail != nil }.count == 2, "those drawn are kept")
    }

    @Test func aSketchWithoutAThumbnailGetsOneDrawnFromItsLinesAndKept() throws {
        let (library, store, _) = try library()
        let doc = document(SketchMeta(name: "Haus"), ops: 2)
        try store.saveSketch(doc)
        let summary = try #require(try library.list().first)
        #expect(summary.thumbnail == nil)
        #expect(library.withThumbnails(try library.list(), first: 0).first?.thumbnail == nil, "none asked for")
        let png = try #require(library.withThumbnails(try library.list(), first: 1).first?.thumbnail)
        #expect(AvatarPNG.dimensions(png)?.width == SketchLibrary.thumbnailWidth)
        #expect(try library.list().first?.thumbnail == png, "kept, so the next gallery does not draw it again")
        #expect(library.thumbnail(for: try #require(try library.list().first)) == png)
        let digest = library.digest(UUID(), stored: nil)
        #expect(digest.authors.isEmpty && digest.thumbnail == nil, "an unreadable sketch still reports")
    }

    @Test func aThrowAwayTheStoreRefusesAsksForNoSyncRound() {
        let rounds = Tally()
        var library = SketchLibrary.unavailable
        library.changed = { rounds.add() }
        #expect(throws: StoreUnavailable.self) { try library.list() }
        #expect(throws: StoreUnavailable.self) { try library.throwAway(UUID()) }
        #expect(throws: StoreUnavailable.self) { try library.bringBack(UUID()) }
        #expect(rounds.count == 0)
        #expect(library.owned(by: "Mia", among: [SketchSummary(id: UUID(), name: "x", guides: .none, createdAt: Date(),
                                                               modifiedAt: Date(), opCount: 0, thumbnail: nil)]).isEmpty,
                "an unreadable sketch is nobody's")
    }
}
