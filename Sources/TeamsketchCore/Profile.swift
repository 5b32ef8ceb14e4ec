import Foundation
import LearnModel

/// The pupil at this device: the name they last used (so joining is one tap
/// next time, and every stroke drawn here carries it) and the picture they
/// drew of themselves. Kept as a small JSON file; `ProfileClient` reads and
/// writes it.
public struct Profile: Codable, Equatable, Sendable {
    public init(name: String, soundsOn: Bool? = nil, avatarPNG: Data? = nil) {
        self.name = name
        self.soundsOn = soundsOn
        self.avatarPNG = avatarPNG
    }

    /// The one name this device uses for its pupil: on solo strokes, on
    /// shared strokes, in lobbies and in Buchstaben Post's stats.
    public var name: String
    /// Buchstaben Post's sounds as a pupil switched them before the teacher
    /// owned the setting; still read so an old device keeps its quiet
    /// until a teacher sets the classroom's settings.
    public var soundsOn: Bool?
    /// The picture the pupil drew of themselves with the felt pens (PNG,
    /// 128 × 128); shown in lobbies, on join cards and on the game's trains.
    public var avatarPNG: Data?

    /// The profile before a pupil has typed a name: the login name,
    /// capitalised, or "Pupil" when there is none or it is root (a shared
    /// classroom machine should not sign everything "Root").
    public static func fallback(userName: String?) -> Profile {
        let user = userName ?? ""
        return Profile(name: user.isEmpty || user == "root" ? "Pupil" : user.capitalized)
    }

    /// A profile from disk is only used when it names someone; otherwise the
    /// pupil starts from the fallback.
    public static func resolved(stored: Profile?, userName: String?) -> Profile {
        guard var stored, !stored.name.isEmpty else { return fallback(userName: userName) }
        // A picture that is not one (a hand-edited or damaged file) is dropped.
        if let png = stored.avatarPNG, !AvatarPNG.isAcceptable(png) { stored.avatarPNG = nil }
        return stored
    }
}
