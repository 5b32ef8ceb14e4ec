import Foundation
import LearnBasics
import LearnSketch

/// A change to a sketch's parameters, as the device's outbox and the school
/// server carry it. `thumbnail` is only still read: stores of earlier
/// versions wrote one for every new preview; previews are drawn from the
/// ops, on every device and on the server.
public struct SketchChange: Codable, Hashable, Sendable {
    public enum Change: String, Codable, Sendable {
        case create, rename, thumbnail, delete
        /// `member` draws in this team sketch (the host let them in).
        case member
        /// A deletion taken back (by the teacher, within
        /// `SketchDeletion.undoDays` of it).
        case restore
    }

    public var change: Change
    public var name: String?
    public var guides: String?
    public var timeLimitMinutes: Int?
    public var width: Double?
    public var height: Double?
    public var createdAt: Int64?
    /// On a creation: the school account that started the sketch (the
    /// host's, in a team session); nil means whoever pushes it. The school
    /// server lets only its creator and that pupil's teacher rename or
    /// delete it.
    public var creator: String?
    /// On the creation of a team sketch whose id was made for its creator:
    /// the nonce it was made with (`TeamSketchID`), so the server can check
    /// that the creator named is the one the id was made for.
    public var nonce: String?
    /// On a creation: drawn in a LAN session, so the host's accepted
    /// members may join it (`member` changes). A sketch drawn alone has its
    /// creator as its only member.
    public var team: Bool?
    /// On a `member` change: the account that joins.
    public var member: String?
    /// When the change happened (Unix ms).
    public var at: Int64

    public init(change: Change, name: String? = nil, guides: String? = nil, timeLimitMinutes: Int? = nil,
                width: Double? = nil, height: Double? = nil, createdAt: Int64? = nil, creator: String? = nil,
                nonce: String? = nil, team: Bool? = nil, member: String? = nil, at: Int64) {
        self.change = change; self.name = name; self.guides = guides; self.timeLimitMinutes = timeLimitMinutes
        self.width = width; self.height = height; self.createdAt = createdAt
        self.creator = creator; self.nonce = nonce; self.team = team; self.member = member; self.at = at
    }

    public static func create(_ meta: SketchMeta, origin: SketchOrigin = .alone(creator: nil), at: Int64) -> SketchChange {
        SketchChange(change: .create, name: meta.name, guides: meta.guides.rawValue,
                     timeLimitMinutes: meta.timeLimitMinutes, width: meta.width, height: meta.height,
                     createdAt: UnixMilliseconds.milliseconds(meta.createdAt),
                     creator: origin.creator?.lowercasedText, nonce: origin.nonce?.lowercasedText,
                     team: origin.isTeam ? true : nil, at: at)
    }

    public static func member(_ account: UUID, at: Int64) -> SketchChange {
        SketchChange(change: .member, member: account.lowercasedText, at: at)
    }

    public static func rename(_ name: String, at: Int64) -> SketchChange {
        SketchChange(change: .rename, name: name, at: at)
    }

    public static func delete(at: Int64) -> SketchChange { SketchChange(change: .delete, at: at) }

    public static func restore(at: Int64) -> SketchChange { SketchChange(change: .restore, at: at) }

    public func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }
}

/// Who a sketch is: drawn alone by `creator` (nil: whoever is signed in
/// where it is pushed), or in a LAN session the host's account started.
/// `nonce`: what the team sketch's id was made with besides its creator
/// (`TeamSketchID`), told to every member and carried by the creation.
public enum SketchOrigin: Hashable, Sendable {
    case alone(creator: UUID?)
    case team(creator: UUID?, nonce: UUID? = nil)

    public var creator: UUID? {
        switch self { case .alone(let c), .team(let c, _): c }
    }

    public var nonce: UUID? { if case .team(_, let nonce) = self { nonce } else { nil } }

    public var isTeam: Bool { if case .team = self { true } else { false } }
}
