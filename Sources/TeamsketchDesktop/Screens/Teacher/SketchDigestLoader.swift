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
                // An unreadable sketch still reports, with nobody and no new
                // picture, so the list knows it has heard from every one.
                guard let doc = try? store.loadSketch(id) else {
                    let digest = Digest(id: id, authors: [], thumbnail: stored)
                    await MainActor.run { each(digest) }
                    continue
                }
                let authors = Set(doc.ops.compactMap { op -> String? in
                    if case .addStroke(let s) = op { return s.author } else { return nil }
                })
                var png = stored
                if png == nil, let drawn = try? SketchExport.pngData(doc, width: Self.thumbnailWidth) {
                    png = Data(drawn)
                }
                let digest = Digest(id: id, authors: authors, thumbnail: png)
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
