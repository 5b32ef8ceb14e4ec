import Foundation

/// An account's profile as the people around it see it: the name and the
/// avatar the pupil drew. The last change in server order wins.
public struct ProfileRecord: Codable, Hashable, Sendable {
    public var name: String
    /// A small PNG (base64 in JSON), or nil for none yet.
    public var avatarPNG: Data?
    public var at: Int64

    /// An avatar is drawn on a small canvas: a 64 KiB PNG is plenty.
    public static let maxAvatarBytes = 64 * 1024
    public static let maxNameCharacters = 64
    /// A profile's JSON: the avatar in base64 (a third more, and "\/" for
    /// each slash), the name, and room to spare. More is padding, which a
    /// server would hand every classmate on every page.
    public static let maxPayloadBytes = 128 * 1024

    public init(name: String, avatarPNG: Data? = nil, at: Int64) {
        self.name = name; self.avatarPNG = avatarPNG; self.at = at
    }

    /// Why the profile cannot be stored, or nil when it can.
    public var problem: String? {
        if name.isEmpty || name.count > Self.maxNameCharacters { return "a name is 1 to \(Self.maxNameCharacters) characters" }
        if let avatarPNG {
            if avatarPNG.count > Self.maxAvatarBytes { return "the avatar is bigger than 64 KiB" }
            if !avatarPNG.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "the avatar is not a PNG" }
        }
        return nil
    }
}
