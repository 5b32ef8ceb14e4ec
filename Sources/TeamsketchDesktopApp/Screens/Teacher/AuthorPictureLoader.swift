import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The pictures pupils drew, for the teacher's lists: the profiles synced
/// to this computer and this device's own are read, matched to names by
/// `AuthorPictures` (which hands out only bytes that pass `AvatarPNG`'s
/// checks) and decoded, all away from the main thread; the decoded
/// pictures come back to the main actor once.
@MainActor
package final class AuthorPictureLoader {
    /// A decoded picture handed from the worker to the main actor; the
    /// worker lets go of it when it hands it over.
    private final class Decoded: @unchecked Sendable {
        let images: [String: CairoImage]
        init(_ images: [String: CairoImage]) { self.images = images }
    }

    /// Decoded pictures by `AuthorPictures.key`.
    private var images: [String: CairoImage] = [:]
    private var task: Task<Void, Never>?

    /// Reads and decodes; `then` runs on the main actor when the pictures
    /// are there (not at all when nothing could be read).
    func load(from library: SketchLibrary, own: Profile, then: @escaping @MainActor () -> Void) {
        task?.cancel()
        let me = AuthorPictures.Person(name: own.name, avatarPNG: own.avatarPNG)
        task = Task { [weak self] in
            let decoded = await Task.detached(priority: .utility) { () -> Decoded? in
                Self.decode(from: library, own: me).map(Decoded.init)
            }.value
            guard let decoded, !Task.isCancelled, let self else { return }
            self.images = decoded.images
            then()
        }
    }

    /// Reads every known profile, matches pictures to names and decodes
    /// them; nil when the profiles cannot be read. Runs on any thread;
    /// `bench-gallery` times exactly this.
    package nonisolated static func decode(from library: SketchLibrary, own: AuthorPictures.Person) -> [String: CairoImage]? {
        guard let profiles = try? library.profiles() else { return nil }
        let matched = AuthorPictures(profiles: profiles, own: own)
        var images: [String: CairoImage] = [:]
        for (key, png) in matched.pictures {
            if Task.isCancelled { return nil }
            if let image = Avatar.image([UInt8](png)) { images[key] = image }
        }
        return images
    }

    /// Whether no picture is known (nothing to look up).
    var isEmpty: Bool { images.isEmpty }

    /// The decoded picture of this author, if one is known.
    func picture(for author: String) -> CairoImage? { images[AuthorPictures.key(author)] }

    isolated deinit { task?.cancel() }
}
