import Foundation
import LearnBasics

/// A teacher's grade and comment on a piece of work: a sketch or a
/// Buchstaben Post game, for the whole team or for one pupil of it. Its id
/// (the change's entity id) stays the same when the teacher changes their
/// mind; the last change in server order wins.
public struct GradeRecord: Codable, Hashable, Sendable {
    public enum Target: String, Codable, Sendable { case sketch, wordPostGame }

    public var target: Target
    /// The sketch or game graded.
    public var targetId: GradedWorkID
    /// The pupil, or nil for the team as a whole: their account's id where
    /// the teacher knows it, else `GradeIdentity.namedPupil` of their name,
    /// an id of the same form that no server knows.
    public var pupilId: AccountID?
    /// The pupil's name as their work shows it, so a grade list on any
    /// device can say whose grade it is (older records have none).
    public var pupilName: String?
    /// 1 (best) to 5, or nil for a comment without a grade.
    public var grade: Int?
    public var comment: String
    /// True when the teacher took the grade back.
    public var deleted: Bool
    public var at: Int64

    public static let grades = 1...5
    /// About a page of handwriting: enough for a comment to a child.
    public static let maxCommentCharacters = 2000
    public static let maxPupilNameCharacters = 200

    public init(target: Target, targetId: GradedWorkID, pupilId: AccountID? = nil, pupilName: String? = nil, grade: Int?,
                comment: String, deleted: Bool = false, at: Int64) {
        self.target = target; self.targetId = targetId; self.pupilId = pupilId; self.pupilName = pupilName
        self.grade = grade; self.comment = comment; self.deleted = deleted; self.at = at
    }

    /// Why the record cannot be stored, or nil when it can.
    public var problem: String? {
        if let grade, !Self.grades.contains(grade) { return "a grade is 1 to 5" }
        if comment.count > Self.maxCommentCharacters { return "the comment is longer than \(Self.maxCommentCharacters) characters" }
        if targetId.uuid == nil { return "the graded work is not an id" }
        if let pupilId, pupilId.uuid == nil { return "the pupil is not an id" }
        if let pupilName, pupilName.count > Self.maxPupilNameCharacters {
            return "the pupil's name is longer than \(Self.maxPupilNameCharacters) characters"
        }
        return nil
    }

    /// Whether this edit of a grade replaces `other`, an edit of the same
    /// grade. The later edit wins, in whatever order edits reach a device or
    /// the server: a grade changed offline and pushed a day later does not
    /// replace a newer one. Two edits of one millisecond (two laptops) are
    /// ordered by `tieBreak`, so every copy keeps the same one. The server
    /// (in SQL, comparing the same two values) and every device decide by
    /// this one rule.
    public func supersedes(_ other: GradeRecord) -> Bool {
        if at != other.at { return at > other.at }
        return tieBreak > other.tieBreak
    }

    /// The SHA-256 of what the edit says, in lowercase hex: 64 characters
    /// of 0-9 and a-f, which order alike in Swift and in either database's
    /// text comparison, so a tie is broken the same way everywhere.
    public var tieBreak: String {
        // The name's length first, so no name and comment run into another pair.
        let name = pupilName ?? ""
        let said = "\(grade ?? 0)\n\(deleted ? 1 : 0)\n\(name.utf8.count):\(name)\n\(comment)"
        return SHA256.hash(Array(said.utf8)).map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }
}
