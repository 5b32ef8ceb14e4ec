import Foundation
import LearnModel

/// Which drawn picture belongs to which author name in the teacher's lists.
///
/// Strokes and game results carry a pupil's name, not an account, so the
/// picture is found by name among the profiles this computer knows: the
/// synced `ProfileRecord`s of signed-in pupils, and this device's own
/// profile for its own name. A name is compared as a lobby compares it
/// (cleaned like a member's name, case ignored), so "anna " on a stroke is
/// Anna's. When two people of that name are known with different pictures —
/// or one has a picture and the other none — nobody can tell whose work it
/// is, so no picture is shown rather than the wrong child's face. Only bytes
/// that pass `AvatarPNG`'s checks are ever handed out for decoding.
public struct AuthorPictures: Sendable, Equatable {
    /// The picture for each name key (see `key(_:)`).
    public private(set) var pictures: [String: Data] = [:]

    /// One known person: their name and the picture they drew, if any.
    public struct Person: Sendable, Equatable {
        public var name: String
        public var avatarPNG: Data?
        public init(name: String, avatarPNG: Data?) { self.name = name; self.avatarPNG = avatarPNG }
    }

    /// `profiles`: the synced profiles (one per account); `own`: this
    /// device's own name and picture.
    public init(profiles: [ProfileRecord], own: Person? = nil) {
        var people = profiles.map { Person(name: $0.name, avatarPNG: $0.avatarPNG) }
        if let own { people.append(own) }
        self.init(people: people)
    }

    public init(people: [Person]) {
        // Each name's distinct pictures; `nil` stands for "known, no picture"
        // (an unusable picture counts as none: it cannot be shown either).
        var byName: [String: Set<Data?>] = [:]
        for p in people {
            let k = Self.key(p.name)
            guard !k.isEmpty else { continue }
            let png = p.avatarPNG.flatMap { AvatarPNG.isAcceptable($0) ? $0 : nil }
            byName[k, default: []].insert(png)
        }
        for (k, found) in byName where found.count == 1 {
            if let only = found.first, let png = only { pictures[k] = png }
        }
    }

    /// The picture of the author with this name, or nil when none is known
    /// or the name is ambiguous.
    public func picture(for author: String) -> Data? { pictures[Self.key(author)] }

    /// The pictures for these authors, keyed by the name as given.
    public func pictures(for authors: some Sequence<String>) -> [String: Data] {
        var found: [String: Data] = [:]
        for a in authors { if let png = picture(for: a) { found[a] = png } }
        return found
    }

    /// How a name is compared (`DisplayName.key`).
    public static func key(_ name: String) -> String {
        DisplayName.key(name)
    }
}
