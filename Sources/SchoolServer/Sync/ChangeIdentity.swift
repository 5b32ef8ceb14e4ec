import Foundation
import LearnModel

/// The ids a device works out from what a change is, worked out again here.
///
/// A sketch's creation and its ops, and a grade, are named from their
/// content (`SketchOpIdentity`, `GradeIdentity`), so every device that holds
/// them gives them the same id and the server keeps each once. Those names
/// are easy to work out for anyone who knows a sketch's or a pupil's id,
/// and sketch ids travel on the LAN. So the server takes a derived id only
/// on the very change it names, and keeps every other change out of the
/// derived ids' space (version 8): nobody can file something else under
/// the id of a classmate's next change and so block it.
enum ChangeIdentity {
    /// Ids worked out from content are version-8 UUIDs; devices give all
    /// other changes version-7 (older ones version-4) ids.
    static func isDerived(_ id: UUID) -> Bool { id.uuid.6 >> 4 == 8 }

    /// A change whose id the device chose itself.
    static func checkChosen(_ opId: UUID) throws {
        guard !isDerived(opId) else {
            throw PushRejection(.conflict, "this op id is one the server works out from a change's content, not this change's")
        }
    }

    static func checkCreation(_ opId: UUID, of sketch: UUID) throws {
        guard opId == SketchOpIdentity.creation(of: sketch) else {
            throw PushRejection(.conflict, "a sketch's creation has the op id its sketch names")
        }
    }

    static func checkMember(_ opId: UUID, _ change: SketchChange, of sketch: UUID) throws {
        guard let member = change.member.flatMap(UUID.init(text:)),
              opId == SketchOpIdentity.member(member, of: sketch) else {
            throw PushRejection(.conflict, "naming a member has the op id its sketch and account name")
        }
    }

    static func checkOp(_ opId: UUID, _ op: SketchOp, in sketch: UUID) throws {
        guard opId == SketchOpIdentity.id(of: op, in: sketch) else {
            throw PushRejection(.conflict, "an op's id is the one its sketch and stroke name")
        }
    }

    /// A grade is kept under the id its work and pupil name, and a game's
    /// grade is on that pupil's own results.
    static func checkGrade(_ entityKey: String, _ grade: GradeRecord) throws {
        guard let work = grade.targetId.uuid else { throw PushRejection(.badRequest, "the graded work is not an id") }
        let expected: UUID
        if let pupil = grade.pupilId?.uuid {
            if grade.target == .wordPostGame, work != GradeIdentity.wordPostResults(of: pupil) {
                throw PushRejection(.conflict, "a game's grade is on that pupil's own results")
            }
            expected = GradeIdentity.pupil(grade.target, work, pupil: pupil)
        } else {
            expected = GradeIdentity.team(grade.target, work)
        }
        guard entityKey == expected.key else {
            throw PushRejection(.conflict, "a grade's id is the one its work and pupil name")
        }
    }

    /// Whether a change pushed under an op id the server holds is the change
    /// stored under it (a retry, or a team member's copy), not another one.
    /// A derived id was checked against the change's content already, and
    /// the members of a team sketch push copies that differ in what is no
    /// part of the op (each stamps the creation with its own clock; a
    /// member's stroke came over the LAN rounded to its grid): for those the
    /// id is the content. Every other change must match byte for byte.
    static func isSame(_ change: SyncChange, as stored: PushFacts.StoredOp) -> Bool {
        guard change.entity == stored.entity, change.entityKey == stored.entityKey else { return false }
        guard !isDerived(change.opId), let hash = stored.payloadHash else { return true }
        return hash == change.payloadHash
    }
}
