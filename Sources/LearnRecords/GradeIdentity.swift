import Foundation
import LearnBasics

/// The ids a teacher's grades are kept under, worked out from what is
/// graded: the same for every later change of mind, so the newest replaces
/// the older on every device and on the server.
///
/// - A team's grade: one per work (`team`).
/// - A pupil's grade: one per work and pupil (`pupil`).
/// - A pupil's Buchstaben Post results are one work per pupil: their
///   `wordPostResults` id is the graded target (the server's rules want a
///   game's grade to be for one pupil).
/// - Who the pupil is: their account's id when the teacher signed in to
///   the school server and the name on the work is a pupil of one of their
///   classes; else `namedPupil(name)`, a name-based UUID of the name
///   (trimmed, Unicode-composed, lowercased), the same on every device, so
///   "Mia" drawing on two laptops without a server is one pupil. The server
///   knows no such id and refuses those grades: they stay on the device
///   where they were given.
public enum GradeIdentity {
    public static func team(_ target: GradeRecord.Target, _ targetID: UUID) -> UUID {
        SketchOpIdentity.name(targetID, "grade:\(target.rawValue):team")
    }

    public static func pupil(_ target: GradeRecord.Target, _ targetID: UUID, pupil: UUID) -> UUID {
        SketchOpIdentity.name(targetID, "grade:\(target.rawValue):pupil:\(pupil.lowercasedText)")
    }

    public static func wordPostResults(of pupil: UUID) -> UUID {
        SketchOpIdentity.name(pupil, "wordpost-results")
    }

    public static func namedPupil(_ name: String) -> UUID {
        let key = normalized(name)
        return SketchOpIdentity.name(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), "pupil-name:" + key)
    }

    /// How names are compared: "  mia " is "Mia".
    public static func normalized(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }
}
