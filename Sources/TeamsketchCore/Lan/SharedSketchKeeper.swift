import Foundation
import LearnModel

/// Keeps a shared sketch on this device as the session draws it, so each
/// device ends with the whole sketch, every author's strokes: stored once
/// the session's sketch id is known, every op the session applies appended,
/// a snapshot caught up with. A device that rejoins is told the same sketch
/// id and finds its earlier copy; the saver counts what it holds and
/// appends the rest. What could not be saved goes to `report`.
@MainActor
public final class SharedSketchKeeper {
    /// A new keeper for one session, over this device's store; what could
    /// not be saved goes to the closure given.
    public typealias Make = @MainActor (_ report: @escaping @MainActor (SketchSaveError) -> Void) -> SharedSketchKeeper

    private let store: StoreClient?
    private let report: @MainActor (SketchSaveError) -> Void
    /// Made when the sketch is first stored.
    public private(set) var saver: SketchSaver?
    /// Accounts named to the school server as drawing in the sketch.
    private var named: Set<UUID> = []

    /// `store` nil: this device keeps nothing.
    public init(store: StoreClient?, report: @escaping @MainActor (SketchSaveError) -> Void) {
        self.store = store
        self.report = report
    }

    /// Stores the sketch `meta` describes if it is the session's `sketch`
    /// and not stored yet. `members`: the accounts that draw in it, named
    /// with the sketch before any of its ops (a member names itself: its
    /// laptop may sync before the host's).
    public func ensureStored(_ meta: SketchMeta, of sketch: SessionSketch?, members: [UUID] = []) {
        guard saver == nil, let store, let sketch, meta.id == sketch.id else { return }
        let saver = SketchSaver(store: store, sketch: meta, origin: .team(creator: sketch.creator, nonce: sketch.nonce),
                                members: members)
        named.formUnion(members)
        self.saver = saver
        failed(saver.ensureStored())
    }

    /// Names the accounts not named yet as drawing in the stored sketch.
    public func name(_ accounts: [UUID]) {
        guard let saver else { return }
        let new = accounts.filter { !named.contains($0) }
        guard !new.isEmpty else { return }
        if let failure = saver.addMembers(new) { return report(failure) }
        named.formUnion(new)
    }

    public func append(_ op: SketchOp) {
        failed(saver?.append(op))
    }

    /// A snapshot is the host's log, in the same order as what is stored:
    /// stores the sketch if needed and appends what this device lacks.
    public func catchUp(with document: SketchDocument, of sketch: SessionSketch?, members: [UUID] = []) {
        ensureStored(document.meta, of: sketch, members: members)
        guard let pending = saver?.catchUp(with: document) else { return }
        Task { [weak self] in self?.failed(await pending.value) }
    }

    private func failed(_ failure: SketchSaveError?) {
        if let failure { report(failure) }
    }
}
