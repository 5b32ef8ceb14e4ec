import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import TeamsketchTestSupport
import Testing

/// Accounts named to the store, call by call.
fileprivate final class Named: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [[UUID]] = []
    func add(_ accounts: [UUID]) { lock.withLock { calls.append(accounts) } }
    var all: [[UUID]] { lock.withLock { calls } }
}

@MainActor
@Suite struct SharedSketchKeeperTests {
    let store: LocalStore
    let sketch = SessionSketch(id: UUID(), creator: UUID(), nonce: UUID())
    var meta: SketchMeta { SketchMeta(id: sketch.id, name: "Zoo", createdAt: Fixture.date) }
    fileprivate let named = Named()

    init() throws { store = try LocalStore.inMemory() }

    /// The real store, recording which accounts it is told draw in a sketch.
    var client: StoreClient {
        var client = StoreClient.live(store)
        let add = client.addMembers
        let named = named
        client.addMembers = { accounts, id in
            named.add(accounts)
            try add(accounts, id)
        }
        return client
    }

    @Test func onlyTheSessionsSketchIsStoredAndOnlyOnce() throws {
        let keeper = SharedSketchKeeper(store: client) { Issue.record("not saved: \($0)") }
        // A lobby's sheet before this device knows the session's sketch id.
        keeper.ensureStored(SketchMeta(name: "Zoo", createdAt: Fixture.date), of: sketch)
        keeper.ensureStored(meta, of: nil)
        #expect(try store.sketches().isEmpty)
        #expect(keeper.saver == nil)
        keeper.ensureStored(meta, of: sketch)
        keeper.ensureStored(meta, of: sketch)
        #expect(try store.sketches().map(\.id) == [sketch.id])
        #expect(keeper.saver?.origin == .team(creator: sketch.creator, nonce: sketch.nonce))
    }

    @Test func eachAccountIsNamedOnceWhicheverWayItCame() throws {
        let me = UUID(), anna = UUID(), ben = UUID()
        let keeper = SharedSketchKeeper(store: client) { Issue.record("not saved: \($0)") }
        // Before the sketch is stored there is nothing to name them in.
        keeper.name([anna])
        keeper.ensureStored(meta, of: sketch, members: [me])
        keeper.name([me, anna])
        keeper.name([anna, ben])
        keeper.name([me, anna, ben])
        #expect(named.all == [[anna], [ben]])
    }

    @Test func appliedOpsAndASnapshotEndAsTheHostsLog() async throws {
        let keeper = SharedSketchKeeper(store: client) { Issue.record("not saved: \($0)") }
        keeper.ensureStored(meta, of: sketch)
        keeper.append(strokeOp(1))
        var snapshot = document(meta, ops: 4)
        snapshot.meta = meta
        keeper.catchUp(with: snapshot, of: sketch)
        try await eventually("the snapshot is caught up with") { (try? store.loadSketch(sketch.id).ops.count) == 4 }
        #expect(try store.loadSketch(sketch.id).ops == snapshot.ops)
    }

    @Test func aSnapshotFirstStoresTheSketchNamingTheMember() async throws {
        let me = UUID()
        let keeper = SharedSketchKeeper(store: client) { Issue.record("not saved: \($0)") }
        keeper.catchUp(with: document(meta, ops: 2), of: sketch, members: [me])
        try await eventually("the snapshot is stored") { (try? store.loadSketch(sketch.id).ops.count) == 2 }
        keeper.name([me])
        #expect(named.all.isEmpty)
    }

    @Test func whatCouldNotBeSavedIsReported() throws {
        let down = Switch(true)
        var reported: [SketchSaveError] = []
        let keeper = SharedSketchKeeper(store: .flaky(store, appendsFail: down)) { reported.append($0) }
        keeper.ensureStored(meta, of: sketch)
        keeper.append(strokeOp(1))
        #expect(reported.count == 1)
    }

    @Test func withoutAStoreNothingIsKeptOrReported() {
        let keeper = SharedSketchKeeper(store: nil) { Issue.record("reported \($0)") }
        keeper.ensureStored(meta, of: sketch)
        keeper.append(strokeOp(1))
        #expect(keeper.saver == nil)
    }
}
