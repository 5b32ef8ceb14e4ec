import Foundation
import LearnModel
import LearnRender
import LearnStore

/// The one way a sketch reaches the store, alone or shared: solo strokes,
/// the ops a LAN session applies, snapshots after a late join, imported
/// files and the gallery's thumbnail all go through a saver.
///
/// The store always holds a prefix of the sketch's op log: `storedOps` ops,
/// counted from what the store really accepted. Ops that could not be
/// written wait in order and are tried again before the next one, so a
/// passing failure leaves no hole. The first failure is reported (as the
/// return value) and later ones are not, so a pupil sees one message, not
/// one per stroke.
@MainActor
public final class SketchSaver {
    public private(set) var meta: SketchMeta
    /// Who the sketch is filed under when it is first stored, and the
    /// accounts then named as its members.
    public let origin: SketchOrigin
    private let members: [UUID]
    /// Ops of this sketch the store holds; nil until the store was asked
    /// (or told, for a sketch that was just loaded from it).
    public private(set) var storedOps: Int?
    /// Ops given to the saver and not yet stored, in log order.
    public private(set) var unsaved: [SketchOp] = []
    private var unsavedStart: Int
    private var importing = false
    /// A batch is being written away from the main thread; ops given
    /// meanwhile wait so the log keeps its order.
    private var writing = false
    /// Bumped by every snapshot, which replaces what waits: a batch that was
    /// written meanwhile then no longer is the front of `unsaved`.
    private var snapshots = 0
    private var failureReported = false
    /// Told when the sketch was deleted here while open and its drawing
    /// went on in a copy (see `flush`).
    public var onKeptCopy: (LocalStore.KeptCopy) -> Void = { _ in }
    private var keepingCopy = false
    private var thumbnailDirty = false
    private let store: StoreClient

    public var sketchID: UUID { meta.id }

    /// `storedOps`: how many of the sketch's ops are known to be stored,
    /// e.g. all of a document just loaded from the store; nil when unknown.
    public init(store: StoreClient, sketch meta: SketchMeta, origin: SketchOrigin = .alone(creator: nil),
                members: [UUID] = [], storedOps: Int? = nil) {
        self.store = store
        self.meta = meta
        self.origin = origin
        self.members = members
        self.storedOps = storedOps
        unsavedStart = storedOps ?? 0
    }

    /// A saver for a sketch read from a file. The file keeps its id unless
    /// the store already has that id (the same file imported twice, or a
    /// deleted sketch's): then it becomes a new sketch beside the old one.
    /// Nothing is written until `storeImported()`.
    public static func forImport(_ document: SketchDocument, store: StoreClient) -> (SketchDocument, SketchSaver) {
        var doc = document
        // Not knowing counts as taken: a fresh id never collides. A team
        // sketch's id (made for its host, `TeamSketchID`) is never kept:
        // the server would refuse it as this laptop's own creation.
        if TeamSketchID.isBound(doc.meta.id) || (try? store.isSketchIDTaken(doc.meta.id)) != false {
            doc.meta.id = UUID()
        }
        let saver = SketchSaver(store: store, sketch: doc.meta)
        saver.unsaved = doc.ops
        saver.unsavedStart = 0
        saver.importing = true
        return (doc, saver)
    }

    /// Reads a sketch file to import it: the document to show and the saver
    /// that will store it (see `forImport`). Throws when the file cannot be
    /// read or is no sketch; nothing is stored then.
    public static func importFile(_ path: String, files: SketchFileClient,
                                  store: StoreClient) throws(SketchIOError) -> (SketchDocument, SketchSaver) {
        forImport(try files.read(path), store: store)
    }

    // MARK: writing

    /// Makes sure the sketch exists in the store and learns how many of its
    /// ops are stored (a rejoining device may have some already).
    @discardableResult
    public func ensureStored() -> SketchSaveError? {
        guard storedOps == nil else { return nil }
        do {
            if let count = try store.storedOpCount(meta.id) {
                storedOps = count
            } else {
                try store.createSketch(meta, origin, members)
                storedOps = 0
            }
            return nil
        } catch {
            return report(.create, error)
        }
    }

    /// Names accounts that draw in this team sketch (the host let them in),
    /// for the school server. Reported like any failure to save.
    @discardableResult
    public func addMembers(_ accounts: [UUID]) -> SketchSaveError? {
        guard !accounts.isEmpty, ensureStored() == nil else { return nil }
        do { try store.addMembers(accounts, meta.id) } catch { return report(.create, error) }
        return nil
    }

    /// The sketch was deleted elsewhere and the store kept what it held as
    /// a copy (`LocalStore.keepAsCopy`, which copies every stored op): the
    /// editor goes on in the copy. Ops that could not be written to the
    /// deleted original are written to the copy now; a failure to write
    /// them is reported afresh. Nothing changes when this saver is for
    /// another sketch.
    @discardableResult
    public func follow(_ kept: LocalStore.KeptCopy) -> SketchSaveError? {
        guard kept.originalID == meta.id else { return nil }
        meta.id = kept.copyID
        meta.name = kept.copy
        // Counted again from the copy, which holds what was stored.
        storedOps = nil
        failureReported = false
        thumbnailDirty = true
        return flush()
    }

    /// One new op at the end of the log (a finished stroke, an erase, a clear).
    @discardableResult
    public func append(_ op: SketchOp) -> SketchSaveError? {
        unsaved.append(op)
        thumbnailDirty = true
        return flush()
    }

    /// The whole log as someone else has it (a session's snapshot after a
    /// late join or rejoin). It has the same order as what was stored
    /// before, so only the ops beyond the stored ones are appended: in one
    /// transaction away from the main thread, since a big sketch has
    /// thousands of them. Ops appended before the task ends wait and follow.
    @discardableResult
    public func catchUp(with document: SketchDocument) -> Task<SketchSaveError?, Never> {
        unsaved = document.ops
        unsavedStart = 0
        thumbnailDirty = true
        snapshots += 1
        // The write under way takes the new log along when it is done.
        guard !writing else { return Task { nil } }
        if let failure = ensureStored() { return Task { failure } }
        guard storedOps != nil, !importing else { return Task { nil } }
        writing = true
        return Task { await writeInBackground() }
    }

    private func writeInBackground() async -> SketchSaveError? {
        defer { writing = false }
        var copied = false
        while true {
            // Counted afresh after moving to a copy.
            if let failure = ensureStored() { return failure }
            dropStoredPrefix()
            guard let stored = storedOps, !unsaved.isEmpty else { return nil }
            let batch = unsaved
            let snapshot = snapshots
            let store = store
            let id = meta.id
            let result = await Task.detached(priority: .userInitiated) { () -> Result<Void, any Error> in
                Result { try store.append(batch, id) }
            }.value
            if case .failure(StoreError.sketchNotFound(let gone)) = result, gone == id, !copied {
                // As in `flush`: the snapshot goes on in a copy, once (the
                // screen may have moved the saver to it meanwhile).
                copied = true
                if gone == meta.id, let failure = goOnInCopy(of: gone) { return failure }
                continue
            }
            if case .failure(let error) = result { return report(.append, error) }
            // A snapshot that came meanwhile replaced what waits; its stored
            // prefix is dropped on the next turn instead.
            markStored(batch.count, after: stored, stillFront: snapshot == snapshots)
        }
    }

    /// Stores an imported sketch in one transaction, away from the main
    /// thread (thousands of strokes take a while). Ops drawn meanwhile wait
    /// and follow once it is in.
    public func storeImported() async -> SketchSaveError? {
        guard importing else { return nil }
        let document = SketchDocument(meta: meta, ops: unsaved)
        let store = store
        let result = await Task.detached(priority: .utility) { () -> Result<Void, any Error> in
            Result { try store.saveSketch(document) }
        }.value
        importing = false
        switch result {
        case .success:
            storedOps = document.ops.count
            unsaved.removeFirst(document.ops.count)
            unsavedStart = document.ops.count
            thumbnailDirty = true
            return flush()
        case .failure(let error):
            // The ops stay unsaved; the next change tries the slow way.
            return report(.importDocument, error)
        }
    }

    /// Tries again to store what waits, without a new op: called now and
    /// then, so a disk that has room again (or is writable again) catches up
    /// while the pupil looks at the sketch.
    @discardableResult
    public func retry() -> SketchSaveError? {
        guard !unsaved.isEmpty || storedOps == nil else { return nil }
        return flush()
    }

    private func flush() -> SketchSaveError? {
        guard !importing, !writing else { return nil }
        if let failure = ensureStored() { return failure }
        dropStoredPrefix()
        guard let stored = storedOps, !unsaved.isEmpty else { return nil }
        do {
            try store.append(unsaved, meta.id)
        } catch StoreError.sketchNotFound(let id) where id == meta.id {
            // One copy per flush: if the copy is gone too by then, that is
            // a failure like any other.
            guard !keepingCopy else { return report(.append, StoreError.sketchNotFound(id)) }
            return goOnInCopy(of: id)
        } catch {
            return report(.append, error)
        }
        markStored(unsaved.count, after: stored, stillFront: true)
        return nil
    }

    /// The sketch was deleted here since it was opened (a pull brought the
    /// teacher's deletion): what the screen shows is kept as a copy, the
    /// saver follows it (writing what waits there, unless a background
    /// write is under way and does that) and whoever listens is told.
    private func goOnInCopy(of id: UUID) -> SketchSaveError? {
        guard let kept = try? store.keepDeletedAsCopy(id) else { return report(.append, StoreError.sketchNotFound(id)) }
        keepingCopy = true
        defer { keepingCopy = false }
        let failure = follow(kept)
        onKeptCopy(kept)
        return failure
    }

    /// `count` ops were stored after the `stored` ones; when they are still
    /// the front of `unsaved`, they leave it.
    private func markStored(_ count: Int, after stored: Int, stillFront: Bool) {
        storedOps = stored + count
        guard stillFront else { return }
        unsaved.removeFirst(count)
        unsavedStart = stored + count
    }

    /// Ops the store already has (a snapshot repeats them) are dropped.
    private func dropStoredPrefix() {
        guard let stored = storedOps, unsavedStart < stored else { return }
        let known = min(stored - unsavedStart, unsaved.count)
        unsaved.removeFirst(known)
        // A log shorter than the stored one adds nothing; what comes next
        // follows the stored ops.
        unsavedStart = unsaved.isEmpty ? stored : unsavedStart + known
    }

    private func report(_ step: SketchSaveError.Step, _ error: any Error) -> SketchSaveError? {
        guard !failureReported else { return nil }
        failureReported = true
        return SketchSaveError(step: step, sketchID: meta.id, underlying: error)
    }

    // MARK: thumbnail

    /// Something changed on screen that the thumbnail should show.
    public func markChanged() { thumbnailDirty = true }

    public var thumbnailNeedsSaving: Bool { thumbnailDirty }

    /// Writes the gallery's picture of `document` when something changed
    /// since the last one. A failure keeps it due for the next try; a
    /// thumbnail is only a preview, so nobody is told.
    public func saveThumbnail(of document: SketchDocument) {
        guard thumbnailDirty, !importing, storedOps != nil else { return }
        thumbnailDirty = false
        do {
            let png = try SketchExport.pngData(document, width: Self.thumbnailWidth)
            try store.setThumbnail(Data(png), meta.id)
        } catch {
            thumbnailDirty = true
        }
    }

    public static let thumbnailWidth = 320
}
