import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import TeamsketchTestSupport
import Testing

@MainActor
@Suite struct SketchSaverTests {
    let store: LocalStore
    let meta = SketchMeta(name: "Sun and moon", createdAt: Fixture.date)

    init() throws { store = try LocalStore.inMemory() }

    @Test func createsAMissingSketchAndAppendsEachOpInOrder() throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        #expect(try !store.hasSketch(meta.id))
        #expect(saver.append(strokeOp(1)) == nil)
        #expect(saver.append(strokeOp(2)) == nil)
        #expect(saver.storedOps == 2)
        #expect(try store.loadSketch(meta.id).ops == [strokeOp(1), strokeOp(2)])
        #expect(try store.loadSketch(meta.id).meta.name == "Sun and moon")
    }

    @Test func ensureStoredCreatesAnEmptySketchOnceAndCountsAnExistingOne() throws {
        #expect(SketchSaver(store: .live(store), sketch: meta).ensureStored() == nil)
        #expect(try store.sketches().count == 1)
        try store.append(strokeOp(1), to: meta.id)
        // A second device session (a rejoin) finds the sketch and its op.
        let again = SketchSaver(store: .live(store), sketch: meta)
        #expect(again.ensureStored() == nil)
        #expect(again.storedOps == 1)
        #expect(try store.sketches().count == 1)
    }

    @Test func aSnapshotAppendsOnlyTheOpsBeyondTheStoredOnes() async throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        saver.append(strokeOp(1))
        saver.append(strokeOp(2))
        // The host's log: the same two first, then three this device missed.
        let snapshot = document(meta, ops: 5)
        #expect(await saver.catchUp(with: snapshot).value == nil)
        #expect(try store.loadSketch(meta.id).ops == snapshot.ops)
        #expect(saver.storedOps == 5)
        // The same snapshot again adds nothing.
        _ = await saver.catchUp(with: snapshot).value
        #expect(try store.loadSketch(meta.id).ops.count == 5)
    }

    @Test func aSnapshotOnRejoinCountsWhatAnEarlierRunStored() async throws {
        try store.saveSketch(document(meta, ops: 3))
        let saver = SketchSaver(store: .live(store), sketch: meta)
        _ = await saver.catchUp(with: document(meta, ops: 4)).value
        #expect(try store.loadSketch(meta.id).ops == document(meta, ops: 4).ops)
    }

    @Test func anEditorOnASketchDeletedElsewhereGoesOnInItsCopy() throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        saver.append(strokeOp(1))
        // A pull brought the sketch's deletion while this device held a
        // stroke the server never took: the store keeps it as a copy.
        let kept = try #require(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName))
        // Another sketch's copy changes nothing here.
        var other = kept
        other.originalID = UUID()
        #expect(saver.follow(other) == nil)
        #expect(saver.sketchID == meta.id)
        #expect(saver.follow(kept) == nil)
        #expect(saver.sketchID == kept.copyID)
        #expect(saver.meta.name == "Sun and moon (copy)")
        saver.append(strokeOp(2))
        #expect(try store.loadSketch(kept.copyID).ops == [strokeOp(1), strokeOp(2)])
        #expect(try store.sketches().map(\.id) == [kept.copyID])
    }

    @Test func aStrokeDrawnBeforeTheEditorMovedToTheCopyGoesToThatCopy() throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        saver.append(strokeOp(1))
        var told: [LocalStore.KeptCopy] = []
        saver.onKeptCopy = { told.append($0) }
        let kept = try #require(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName))
        // The sync's news has not reached the screen yet when the next
        // stroke comes: it finds the copy, not a second one.
        #expect(saver.append(strokeOp(2)) == nil)
        #expect(told == [kept] && saver.sketchID == kept.copyID)
        #expect(try store.loadSketch(kept.copyID).ops == [strokeOp(1), strokeOp(2)])
        #expect(try store.sketches().map(\.id) == [kept.copyID])
        // The news arriving afterwards changes nothing.
        #expect(saver.follow(kept) == nil && saver.sketchID == kept.copyID)
    }

    @Test func aStrokeInASketchDeletedHereSinceItOpenedGoesToACopy() throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        saver.append(strokeOp(1))
        var told: [LocalStore.KeptCopy] = []
        saver.onKeptCopy = { told.append($0) }
        try deleteByPullWithNothingWaiting()
        #expect(try store.sketches().isEmpty)
        #expect(saver.append(strokeOp(2)) == nil)
        let copy = try #require(told.first)
        #expect(told.count == 1 && copy.originalID == meta.id && copy.copy == "Sun and moon (copy)")
        #expect(saver.sketchID == copy.copyID)
        saver.append(strokeOp(3))
        #expect(try store.loadSketch(copy.copyID).ops == [strokeOp(1), strokeOp(2), strokeOp(3)])
        #expect(try store.sketches().map(\.id) == [copy.copyID])
        #expect(told.count == 1)
    }

    /// A late joiner's snapshot arrives in a team sketch the teacher
    /// deleted here since it opened: the snapshot's ops go to a copy, as a
    /// stroke's would, instead of being refused.
    @Test func aSnapshotForASketchDeletedHereSinceItOpenedGoesToACopy() async throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        saver.append(strokeOp(1))
        var told: [LocalStore.KeptCopy] = []
        saver.onKeptCopy = { told.append($0) }
        try deleteByPullWithNothingWaiting()
        #expect(await saver.catchUp(with: document(meta, ops: 3)).value == nil)
        let copy = try #require(told.first)
        #expect(told.count == 1 && copy.originalID == meta.id && saver.sketchID == copy.copyID)
        #expect(try store.loadSketch(copy.copyID).ops.count == 3 && saver.unsaved.isEmpty)
        #expect(try store.sketches().map(\.id) == [copy.copyID])
    }

    /// The sketch's strokes reached the server; then a pull brought the
    /// teacher's deletion, with nothing of this sketch waiting to be sent
    /// (so the store keeps no copy by itself).
    private func deleteByPullWithNothingWaiting() throws {
        try store.acknowledge(try store.pendingOutbox(limit: 10).map(\.opId))
        let deletion = RemoteChange(seq: 1, opId: UUID(), entity: .sketch, entityId: meta.id.uuidString.lowercased(),
                                    payload: try SketchChange.delete(at: 1).encoded(), createdAt: Fixture.date)
        #expect(try store.applyRemote([deletion], cursor: 1, for: "school").keptAsCopies.isEmpty)
    }

    @Test func aFailingStoreIsReportedOnceAsATypedError() async {
        let saver = SketchSaver(store: .failing, sketch: meta)
        let first = saver.append(strokeOp(1))
        #expect(first?.step == .create)
        #expect(first?.sketchID == meta.id)
        #expect(first?.underlying is StoreUnavailable)
        #expect(saver.append(strokeOp(2)) == nil)
        #expect(await saver.catchUp(with: document(meta, ops: 3)).value == nil)
        #expect(saver.storedOps == nil)
        #expect(saver.unsaved.count == 3)
    }

    @Test func theCountFollowsWhatWasReallyStoredAndNothingIsSkippedAfterAFailure() throws {
        let down = Switch()
        let saver = SketchSaver(store: .flaky(store, appendsFail: down), sketch: meta)
        saver.append(strokeOp(1))
        down.isOn = true
        let failure = saver.append(strokeOp(2))
        #expect(failure?.step == .append)
        #expect(failure?.underlying is StoreDown)
        #expect(saver.append(strokeOp(3)) == nil, "reported once")
        #expect(saver.storedOps == 1)
        #expect(try store.loadSketch(meta.id).ops == [strokeOp(1)])
        // Back up: the waiting ops go in first, in order, then the new one.
        down.isOn = false
        #expect(saver.append(strokeOp(4)) == nil)
        #expect(saver.storedOps == 4)
        #expect(saver.unsaved.isEmpty)
        #expect(try store.loadSketch(meta.id).ops == (1...4).map { strokeOp($0) })
    }

    @Test func aSnapshotAfterAFailedAppendStoresTheHostsOrderWithoutDuplicates() async throws {
        let down = Switch()
        let saver = SketchSaver(store: .flaky(store, appendsFail: down), sketch: meta)
        saver.append(strokeOp(1))
        down.isOn = true
        saver.append(strokeOp(2))
        down.isOn = false
        _ = await saver.catchUp(with: document(meta, ops: 3)).value
        #expect(try store.loadSketch(meta.id).ops == document(meta, ops: 3).ops)
    }

    @Test func aSnapshotIsStoredInOneWriteAwayFromTheMainThreadAndStrokesDrawnMeanwhileFollow() async throws {
        let writes = WriteLog()
        // The thread the main actor runs this test on.
        let mainThread = pthread_self()
        var client = StoreClient.live(store)
        let append = client.append
        client.append = { ops, id in
            writes.record(ops.count, onMainThread: pthread_equal(pthread_self(), mainThread) != 0)
            try append(ops, id)
        }
        let saver = SketchSaver(store: client, sketch: meta)
        saver.append(strokeOp(1))
        let snapshot = document(meta, ops: 200)
        let pending = saver.catchUp(with: snapshot)
        // Drawn before the snapshot is in: it waits instead of jumping ahead.
        #expect(saver.append(strokeOp(500)) == nil)
        #expect(await pending.value == nil)
        #expect(try store.loadSketch(meta.id).ops == snapshot.ops + [strokeOp(500)])
        #expect(saver.storedOps == 201)
        #expect(saver.unsaved.isEmpty)
        let calls = writes.calls
        #expect(calls.first?.count == 1 && calls.first?.onMainThread == true, "a stroke is saved at once")
        #expect(calls.dropFirst().allSatisfy { !$0.onMainThread }, "\(calls)")
        #expect(calls.dropFirst().first?.count ?? 0 >= 199, "the missed ops go in one transaction: \(calls)")
        #expect(calls.count <= 3, "\(calls)")
    }

    @Test func aSecondSnapshotDuringTheWriteIsTakenAlongWithoutDuplicates() async throws {
        let saver = SketchSaver(store: .live(store), sketch: meta)
        let first = saver.catchUp(with: document(meta, ops: 50))
        let second = saver.catchUp(with: document(meta, ops: 80))
        #expect(await first.value == nil)
        #expect(await second.value == nil)
        #expect(try store.loadSketch(meta.id).ops == document(meta, ops: 80).ops)
        #expect(saver.storedOps == 80)
    }

    @Test func aSketchLoadedFromTheStoreIsNotCountedAgain() throws {
        let doc = document(meta, ops: 2)
        try store.saveSketch(doc)
        var client = StoreClient.live(store)
        client.storedOpCount = { _ in Issue.record("the count was given"); return nil }
        let saver = SketchSaver(store: client, sketch: meta, storedOps: 2)
        saver.append(strokeOp(3))
        #expect(try store.loadSketch(meta.id).ops.count == 3)
    }

    @Test func anImportIsStoredWholeAndOpsDrawnMeanwhileFollowIt() async throws {
        let file = document(meta, ops: 3)
        let (doc, saver) = SketchSaver.forImport(file, store: .live(store))
        #expect(doc.meta.id == meta.id, "a new id only when the old one is taken")
        // Drawn before the import is in: waits instead of failing.
        #expect(saver.append(strokeOp(9)) == nil)
        #expect(try !store.hasSketch(meta.id))
        #expect(await saver.storeImported() == nil)
        #expect(try store.loadSketch(meta.id).ops == file.ops + [strokeOp(9)])
        #expect(saver.storedOps == 4)
    }

    @Test func theSameFileImportedTwiceBecomesASecondSketch() async throws {
        let file = document(meta, ops: 1)
        let (first, one) = SketchSaver.forImport(file, store: .live(store))
        _ = await one.storeImported()
        let (second, two) = SketchSaver.forImport(file, store: .live(store))
        #expect(second.meta.id != first.meta.id)
        #expect(two.sketchID == second.meta.id)
        #expect(await two.storeImported() == nil)
        #expect(try store.sketches().count == 2)
    }

    /// A file of a team sketch carries its id, made from its host's secret:
    /// kept, this laptop's creation of it would be refused by the school
    /// server (and its strokes with it). The import gets an id of its own.
    @Test func anImportedTeamSketchGetsAnIdOfItsOwn() async throws {
        var teamMeta = meta
        teamMeta.id = SessionSketch.hosted(creator: UUID()).id
        let (doc, saver) = SketchSaver.forImport(document(teamMeta, ops: 1), store: .live(store))
        #expect(doc.meta.id != teamMeta.id && !TeamSketchID.isBound(doc.meta.id))
        #expect(await saver.storeImported() == nil)
        #expect(try store.loadSketch(doc.meta.id).ops.count == 1)
    }

    @Test func aFailedImportIsReportedAndTheOpsAreKept() async {
        let (_, saver) = SketchSaver.forImport(document(meta, ops: 2), store: .failing)
        let failure = await saver.storeImported()
        #expect(failure?.step == .importDocument)
        #expect(saver.unsaved.count == 2)
        #expect(saver.append(strokeOp(3)) == nil)
    }

    @Test func theThumbnailIsWrittenOnlyWhenSomethingChanged() throws {
        let writes = Tally()
        var client = StoreClient.live(store)
        let set = client.setThumbnail
        client.setThumbnail = { png, id in
            writes.add()
            try set(png, id)
        }
        let saver = SketchSaver(store: client, sketch: meta)
        saver.ensureStored()
        saver.saveThumbnail(of: SketchDocument(meta: meta))
        #expect(writes.count == 0, "nothing changed yet")
        saver.append(strokeOp(1))
        #expect(saver.thumbnailNeedsSaving)
        saver.saveThumbnail(of: document(meta, ops: 1))
        saver.saveThumbnail(of: document(meta, ops: 1))
        #expect(writes.count == 1)
        #expect(!saver.thumbnailNeedsSaving)
        let png = try #require(try store.sketches().first?.thumbnail)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aFailedThumbnailStaysDue() {
        let saver = SketchSaver(store: .failing, sketch: meta, storedOps: 0)
        saver.markChanged()
        saver.saveThumbnail(of: SketchDocument(meta: meta))
        #expect(saver.thumbnailNeedsSaving)
    }
}

@MainActor
@Suite struct SketchImportTests {
    @Test func aFileIsReadAndStoredUnderItsOwnID() async throws {
        let store = try LocalStore.inMemory()
        let file = document(SketchMeta(name: "From Xournal", createdAt: Fixture.date), ops: 2)
        let files = SketchFileClient.inMemory(["/tmp/a.xopp": file])
        let (doc, saver) = try SketchSaver.importFile("/tmp/a.xopp", files: files, store: .live(store))
        #expect(doc.meta.id == file.meta.id)
        #expect(try !store.hasSketch(doc.meta.id), "stored only when asked")
        #expect(await saver.storeImported() == nil)
        #expect(try store.loadSketch(doc.meta.id).ops == file.ops)
    }

    @Test func anUnreadableFileStoresNothing() throws {
        let store = try LocalStore.inMemory()
        #expect(throws: (any Error).self) {
            _ = try SketchSaver.importFile("/tmp/missing.xopp", files: .inMemory(), store: .live(store))
        }
        #expect(try store.sketches().isEmpty)
    }
}
