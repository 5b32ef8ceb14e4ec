import Foundation
import LearnModel

/// Who a name on a piece of work is, for grading: the pupils of the signed-
/// in teacher's classes (empty without a server), and the rule of
/// `GradeIdentity` for everyone else. Works carry names, not accounts
/// (strokes and game results are signed with the name the pupil signed in
/// or typed), so the name is the link.
public struct GradedPupils: Sendable, Equatable {
    public struct Pupil: Sendable, Equatable {
        public var id: UUID
        public var name: String
        public var classID: SchoolClassID
        public var className: String

        public init(id: UUID, name: String, classID: SchoolClassID, className: String) {
            self.id = id; self.name = name; self.classID = classID; self.className = className
        }
    }

    public let roster: [Pupil]
    private let byName: [String: [Pupil]]

    public init(roster: [Pupil] = []) {
        self.roster = roster
        byName = Dictionary(grouping: roster) { GradeIdentity.normalized($0.name) }
    }

    /// The pupil of the roster with this name: only when exactly one pupil
    /// of the teacher's classes has it (two "Mia"s cannot be told apart).
    public func account(named name: String) -> Pupil? {
        guard let found = byName[GradeIdentity.normalized(name)], found.count == 1 else { return nil }
        return found[0]
    }

    /// The pupil id a grade for this name is kept under.
    public func id(for name: String) -> UUID {
        account(named: name)?.id ?? GradeIdentity.namedPupil(name)
    }

    /// This pupil's newest grade among a work's grades: the one under their
    /// id, else one given under their name (before the roster was known,
    /// or on another device), so a change of mind finds it.
    public func grade(for name: String, among records: [GradeRecord]) -> GradeRecord? {
        let id = AccountID(id(for: name))
        let key = GradeIdentity.normalized(name)
        let own = records.filter { $0.pupilId == id }
        let named = records.filter { $0.pupilId != nil && $0.pupilName.map(GradeIdentity.normalized) == key }
        return (own.isEmpty ? named : own).max { $0.at < $1.at }
    }

    /// The class ids of the pupil with this id or name, for the grade list's
    /// class filter.
    public func classIDs(id: AccountID?, name: String?) -> Set<SchoolClassID> {
        var found = Set<SchoolClassID>()
        if let id {
            found.formUnion(roster.filter { AccountID($0.id) == id }.map(\.classID))
        }
        if found.isEmpty, let name { found.formUnion(byName[GradeIdentity.normalized(name)]?.map(\.classID) ?? []) }
        return found
    }

    /// The work a pupil's Buchstaben Post grade is on: their results, under
    /// their account's id and, for grades given before it was known, under
    /// their name's (the first is where new grades go).
    public func gameTargets(for name: String) -> [UUID] {
        let own = GradeIdentity.wordPostResults(of: id(for: name))
        let named = GradeIdentity.wordPostResults(of: GradeIdentity.namedPupil(name))
        return own == named ? [own] : [own, named]
    }

    /// What to store when the teacher grades `name` on a work (`sketch`, or
    /// nil for their game results): the grade under the pupil's id (taken
    /// back when neither grade nor comment is left), and, when their earlier
    /// grade is kept under another id (given under the name before the
    /// roster was known), that one taken back, so one grade remains.
    public func changes(sketch: UUID?, name: String, grade: Int?, comment: String, previous: GradeRecord?,
                        at: Int64) -> [(id: UUID, record: GradeRecord)] {
        let pupil = id(for: name)
        let target: GradeRecord.Target = sketch == nil ? .wordPostGame : .sketch
        let work = sketch ?? GradeIdentity.wordPostResults(of: pupil)
        let text = comment.trimmingCharacters(in: .whitespacesAndNewlines)
        var out = [(GradeIdentity.pupil(target, work, pupil: pupil),
                    GradeRecord(target: target, targetId: GradedWorkID(work), pupilId: AccountID(pupil),
                                pupilName: name, grade: grade, comment: text, deleted: grade == nil && text.isEmpty, at: at))]
        if let previous, let oldPupil = previous.pupilId?.uuid, let oldWork = previous.targetId.uuid, oldPupil != pupil {
            var gone = previous
            gone.grade = nil; gone.comment = ""; gone.deleted = true; gone.at = at
            out.append((GradeIdentity.pupil(previous.target, oldWork, pupil: oldPupil), gone))
        }
        return out
    }
}
