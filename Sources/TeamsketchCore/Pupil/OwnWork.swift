import Foundation
import LearnModel

/// Which sketches a signed-in pupil sees under "Open" on a shared laptop:
/// the ones they drew in (alone or with a team) and empty ones (just
/// started, nobody's yet). Other children's work stays out of reach.
public enum OwnWork {
    /// What "Open" lists on this device.
    public enum Listing: Equatable, Sendable {
        /// Every sketch: a computer of one's own, or a teacher signed in.
        case all
        /// The signed-in pupil's (by their account's name, which they cannot change).
        case pupil(String)
        /// A school's shared computer with nobody signed in: nothing until
        /// a pupil signs in, so no child browses another's work.
        case signInFirst

        public static func decide(signIn: SchoolSignIn?, rememberedServer: String?, now: Date) -> Listing {
            if let signIn, signIn.isValid(at: now) { return signIn.isTeacher ? .all : .pupil(signIn.name) }
            return rememberedServer == nil ? .all : .signInFirst
        }
    }

    public static func includes(_ document: SketchDocument, pupil: String) -> Bool {
        var anyone = false
        for op in document.ops {
            guard case .addStroke(let stroke) = op else { continue }
            if stroke.author == pupil { return true }
            anyone = true
        }
        return !anyone
    }
}
