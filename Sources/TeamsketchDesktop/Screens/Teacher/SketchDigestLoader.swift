import CGtk
import Foundation
import LearnModel
import LearnRender
import LearnStore

/// Reads sketches away from the main thread for the teacher's gallery: who
/// drew in each, and a thumbnail (the stored one, or drawn from the ops).
/// Results come back on the main actor one by one, in the order asked,
/// so the grid fills from the top while it stays smooth to scroll.
@MainActor
final class SketchDigestLoader {
    struct Digest: Sendable {
        var id: UUID
        var authors: Set<String>
        var thumbnail: Data?
        /// The thumbnail decoded into a texture on the worker, so the main
        /// thread only shows it.
        var texture: DecodedTexture?
    }

    /// A GdkTexture made away from the main thread (GTK documents
    /// `gdk_texture_new_from_bytes` as thread-safe) and handed over once.
    final class DecodedTexture: @unchecked Sendable {
        private var pointer: OpaquePointer?
        init?(png: Data) {
            guard let t = Texture.png(png) else { return nil }
            pointer = t
        }
        /// The texture with its reference, for the caller to own.
        func take() -> OpaquePointer? {
            defer { pointer = nil }
            return pointer
        }
        deinit { if let pointer { g_object_unref(UnsafeMutableRawPointer(pointer)) } }
    }

    private var task: Task<Void, Never>?

    /// Thumbnails are drawn this wide: a card is 240 px, a bit more keeps it
    /// crisp on a 1.25× screen.
    nonisolated static let thumbnailWidth = 320

    func load(_ summaries: [SketchSummary], from store: LocalStore, each: @escaping @MainActor (Digest) -> Void) {
        task?.cancel()
        let wanted = summaries.map { ($0.id, $0.thumbnail) }
        task = Task.detached(priority: .utility) {
            for (id, stored) in wanted {
                if Task.isCancelled { return }
                var digest = Self.digest(id, stored: stored, from: store)
                digest.texture = digest.thumbnail.flatMap(DecodedTexture.init(png:))
                await MainActor.run { each(digest) }
            }
        }
    }

    /// One sketch's digest: who drew in it and its thumbnail (the stored
    /// one, or drawn from the ops). Runs on any thread; `bench-gallery`
    /// times exactly this.
    nonisolated static func digest(_ id: UUID, stored: Data?, from store: LocalStore) -> Digest {
        // An unreadable sketch still reports, with nobody and no new
        // picture, so the list knows it has heard from every one.
        guard let doc = try? store.loadSketch(id) else { return Digest(id: id, authors: [], thumbnail: stored) }
        let authors = authors(of: doc)
        var png = stored
        if png == nil, let drawn = try? SketchExport.pngData(doc, width: thumbnailWidth) {
            png = Data(drawn)
        }
        return Digest(id: id, authors: authors, thumbnail: png)
    }

    /// Everyone who drew a stroke in the sketch, by name.
    nonisolated static func authors(of doc: SketchDocument) -> Set<String> {
        Set(doc.ops.compactMap { op -> String? in
            if case .addStroke(let s) = op { return s.author } else { return nil }
        })
    }

    func cancel() {
        task?.cancel()
        task = nil
    }

    isolated deinit { task?.cancel() }
}
