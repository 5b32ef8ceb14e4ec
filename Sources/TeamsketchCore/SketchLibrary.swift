import Foundation
import LearnModel
import LearnRender
import LearnStore

/// The sketches kept on this device as the galleries use them: listed,
/// opened, thrown away and brought back, who drew in each, and a
/// thumbnail drawn for a sketch that has none. A change that other
/// devices must hear of (thrown away, brought back) asks for a sync round.
///
/// Reading whole sketches is not for the main thread: the screens call
/// `authors`, `digest`, `owned`, `withThumbnails` and `thumbnail(for:)`
/// from a detached task.
public struct SketchLibrary: Sendable {
    public var list: @Sendable () throws -> [SketchSummary]
    public var load: @Sendable (_ id: UUID) throws -> SketchDocument
    public var delete: @Sendable (_ id: UUID) throws -> Void
    /// Sketches deleted in the last days, newest first.
    public var deleted: @Sendable (_ now: Date) throws -> [DeletedSketch]
    public var restore: @Sendable (_ id: UUID) throws -> Void
    public var setThumbnail: @Sendable (_ png: Data, _ id: UUID) throws -> Void
    /// The profiles synced to this device (names and the pictures pupils
    /// drew), to show who drew.
    public var profiles: @Sendable () throws -> [ProfileRecord]
    /// Asks for a sync round.
    public var changed: @Sendable () -> Void

    public init(list: @escaping @Sendable () throws -> [SketchSummary],
                load: @escaping @Sendable (UUID) throws -> SketchDocument,
                delete: @escaping @Sendable (UUID) throws -> Void,
                deleted: @escaping @Sendable (Date) throws -> [DeletedSketch],
                restore: @escaping @Sendable (UUID) throws -> Void,
                setThumbnail: @escaping @Sendable (Data, UUID) throws -> Void,
                profiles: @escaping @Sendable () throws -> [ProfileRecord],
                changed: @escaping @Sendable () -> Void) {
        self.list = list
        self.load = load
        self.delete = delete
        self.deleted = deleted
        self.restore = restore
        self.setThumbnail = setThumbnail
        self.profiles = profiles
        self.changed = changed
    }

    /// `changed`: what starts a sync round (the school link's `syncNow`).
    public static func live(_ store: LocalStore, changed: @escaping @Sendable () -> Void = {}) -> SketchLibrary {
        SketchLibrary(list: { try store.sketches() }, load: { try store.loadSketch($0) },
                      delete: { try store.deleteSketch($0) }, deleted: { try store.deletedSketches(now: $0) },
                      restore: { try store.restoreSketch($0) }, setThumbnail: { try store.setThumbnail($0, for: $1) },
                      profiles: { Array(try store.profiles().values) }, changed: changed)
    }

    /// Without a store: every call throws `StoreUnavailable`.
    public static let unavailable = SketchLibrary(
        list: { throw StoreUnavailable() }, load: { _ in throw StoreUnavailable() },
        delete: { _ in throw StoreUnavailable() }, deleted: { _ in throw StoreUnavailable() },
        restore: { _ in throw StoreUnavailable() }, setThumbnail: { _, _ in throw StoreUnavailable() },
        profiles: { throw StoreUnavailable() }, changed: {})

    /// Thumbnails are drawn this wide: a card is 240 px, a bit more keeps it
    /// crisp on a 1.25× screen.
    public static let thumbnailWidth = 320

    /// Into the teacher's "Deleted" (for 30 days), here and, once synced,
    /// on every device.
    public func throwAway(_ id: UUID) throws {
        try delete(id)
        changed()
    }

    /// Back from "Deleted" with every line, here and on every device.
    public func bringBack(_ id: UUID) throws {
        try restore(id)
        changed()
    }

    /// The sketches `OwnWork` lets this pupil see; unreadable ones are left out.
    public func owned(by pupil: String, among summaries: [SketchSummary]) -> [SketchSummary] {
        summaries.filter { (try? load($0.id)).map { OwnWork.includes($0, pupil: pupil) } ?? false }
    }

    /// Everyone who drew a stroke in each sketch, by name in order; nobody
    /// for an unreadable one.
    public func authors(of ids: [UUID]) -> [(id: UUID, names: [String])] {
        ids.map { id in (id, (try? load(id)).map { Self.authors(of: $0).sorted() } ?? []) }
    }

    public static func authors(of doc: SketchDocument) -> Set<String> {
        Set(doc.ops.compactMap { op -> String? in
            if case .addStroke(let s) = op { return s.author } else { return nil }
        })
    }

    /// One sketch as a gallery card shows it: who drew in it and its
    /// thumbnail (the stored one, or drawn from the ops).
    public struct Digest: Sendable {
        public var id: UUID
        public var authors: Set<String>
        public var thumbnail: Data?
    }

    /// An unreadable sketch still reports, with nobody and no new picture,
    /// so a list knows it has heard from every one. `bench-gallery` times
    /// exactly this.
    public func digest(_ id: UUID, stored: Data?) -> Digest {
        guard let doc = try? load(id) else { return Digest(id: id, authors: [], thumbnail: stored) }
        var png = stored
        if png == nil, let drawn = try? SketchExport.pngData(doc, width: Self.thumbnailWidth) { png = Data(drawn) }
        return Digest(id: id, authors: Self.authors(of: doc), thumbnail: png)
    }

    /// How many cards a gallery fills before it is shown: about a screen's
    /// worth, so what a child sees first is complete; the rest follow.
    public static let thumbnailsAtOnce = 12

    /// `summaries` with a thumbnail drawn (and kept) for the first `count`
    /// that have none: a sketch pulled by sync, or one whose app was
    /// killed before it wrote its own.
    public func withThumbnails(_ summaries: [SketchSummary], first count: Int) -> [SketchSummary] {
        var drawn = 0
        return summaries.map { summary in
            guard summary.thumbnail == nil, drawn < count else { return summary }
            drawn += 1
            var shown = summary
            shown.thumbnail = thumbnail(for: summary)
            return shown
        }
    }

    /// The stored thumbnail, or one drawn from the op log now and kept (a
    /// sketch whose app was killed before it wrote one); nil when the
    /// sketch cannot be read or drawn.
    public func thumbnail(for summary: SketchSummary) -> Data? {
        if let png = summary.thumbnail { return png }
        let drawn = digest(summary.id, stored: nil).thumbnail
        if let drawn { try? setThumbnail(drawn, summary.id) }
        return drawn
    }
}
