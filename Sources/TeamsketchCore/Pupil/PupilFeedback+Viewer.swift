import Foundation
import LearnModel

extension PupilFeedback.Viewer {
    /// Who looks at this device's sketches: the signed-in pupil, or on
    /// a computer of one's own, its owner by name. A teacher reads
    /// grades in the teacher's window, not here.
    public static func current(signIn: SchoolSignIn?, profileName: String, now: Date) -> PupilFeedback.Viewer? {
        guard let signIn, signIn.isValid(at: now) else { return Self(accountID: nil, name: profileName) }
        return signIn.isTeacher ? nil : Self(accountID: signIn.accountID, name: signIn.name)
    }
}
