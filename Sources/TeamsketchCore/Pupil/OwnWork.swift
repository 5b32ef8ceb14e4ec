import Foundation
import LearnModel
import LearnStore

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

    /// Whether whoever is at the gallery may throw `sketch` away (it goes
    /// to the teacher's "Deleted" for 30 days, so a slip is undone). A
    /// pupil throws away what they started: a sketch drawn alone that
    /// "Open" lists for them, or a team sketch they hosted, never the team
    /// sketch a classmate hosted (the school server would refuse it, and
    /// the classmate's work would vanish only here). A teacher throws away
    /// any; on a laptop used without a server, so does anyone.
    public static func mayThrowAway(_ sketch: SketchSummary, signIn: SchoolSignIn?, rememberedServer: String?,
                                    now: Date) -> Bool {
        switch Listing.decide(signIn: signIn, rememberedServer: rememberedServer, now: now) {
        case .all: return true
        case .signInFirst: return false
        case .pupil:
            switch sketch.startedBy {
            case .alone: return true
            case .team(let host): return host != nil && host == signIn?.accountID.uuid
            }
        }
    }
}
