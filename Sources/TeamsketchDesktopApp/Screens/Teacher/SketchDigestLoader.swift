import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Reads sketches away from the main thread for the teacher's gallery: who
/// drew in each, and a thumbnail (the stored one, or drawn from the ops).
/// Results come back on the main actor one by one, in the order asked,
/// so the grid fills from the top while it stays smooth to scroll.
@MainActor
package final class SketchDigestLoader {
    struct Digest: Sendable {
        var id: UUID
        var authors: Set<String>
        var thumbnail: Data?
        /// The thumbnail decoded into a texture on the worker, so the main
        /// thread only shows it.
        var texture: DecodedTexture?

        init(_ read: SketchLibrary.Digest) {
            id = read.id
            authors = read.authors
            thumbnail = read.thumbnail
            texture = read.thumbnail.flatMap(DecodedTexture.init(png:))
        }
    }

    /// A GdkTexture made away from the main thread (GTK documents
    /// `gdk_texture_new_from_bytes` as thread-safe) and handed over once.
    package final class DecodedTexture: @unchecked Sendable {
        private var pointer: OpaquePointer?
        package init?(png: Data) {
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

    func load(_ summaries: [SketchSummary], from library: SketchLibrary, each: @escaping @MainActor (Digest) -> Void) {
        task?.cancel()
        let wanted = summaries.map { ($0.id, $0.thumbnail) }
        task = Task.detached(priority: .utility) {
            for (id, stored) in wanted {
                if Task.isCancelled { return }
                let digest = Digest(library.digest(id, stored: stored))
                await MainActor.run { each(digest) }
            }
        }
    }

    func cancel() {
        task?.cancel()
        task = nil
    }

    isolated deinit { task?.cancel() }
}
