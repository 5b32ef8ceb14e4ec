import Foundation

/// What the teacher said about a piece of work, as its pupil sees it: the
/// grade (1 best to 5, or none) and the comment. A pupil sees the words
/// meant for them — their own grade, else their team's — and not a
/// classmate's, though a shared laptop holds the classmate's too. (A grade
/// a teacher gave by name only goes to whoever has that name: on a laptop
/// nobody is signed in to, the name its owner typed.)
public struct PupilFeedback: Equatable, Sendable {
    public var grade: Int?
    public var comment: String
    /// The grade is the team's, not the pupil's own.
    public var forTeam: Bool

    public init(grade: Int?, comment: String, forTeam: Bool) {
        self.grade = grade
        self.comment = comment
        self.forTeam = forTeam
    }

    /// Stars a child counts at a glance: 5 for a 1, 1 for a 5.
    public var stars: Int? { grade.map { GradeRecord.grades.upperBound + 1 - $0 } }

    /// Whose feedback to show.
    public struct Viewer: Equatable, Sendable {
        /// The school account, when signed in; grades name it.
        public var accountID: AccountID?
        /// The pupil's name, for grades that name the pupil by name only
        /// (a teacher who graded on a laptop that did not know the account).
        public var name: String

        public init(accountID: AccountID?, name: String) {
            self.accountID = accountID
            self.name = name
        }

        public func isMeant(by grade: GradeRecord) -> Bool {
            guard let pupil = grade.pupilId else { return false }
            if let accountID, pupil == accountID { return true }
            return pupil == AccountID(GradeIdentity.namedPupil(name))
        }
    }

    /// The feedback on one piece of work from its grades (any device's,
    /// any pupil's): the viewer's own newest grade, else the team's newest;
    /// taken-back grades count as none. Nil when there is nothing to say.
    public static func shown(to viewer: Viewer, from grades: [GradeRecord]) -> PupilFeedback? {
        let kept = grades.filter { !$0.deleted && ($0.grade != nil || !$0.comment.isEmpty) }
        let newest: ([GradeRecord]) -> GradeRecord? = { $0.max { $1.supersedes($0) } }
        if let own = newest(kept.filter(viewer.isMeant)) {
            return PupilFeedback(grade: own.grade, comment: own.comment, forTeam: false)
        }
        if let team = newest(kept.filter { $0.pupilId == nil }) {
            return PupilFeedback(grade: team.grade, comment: team.comment, forTeam: true)
        }
        return nil
    }
}
