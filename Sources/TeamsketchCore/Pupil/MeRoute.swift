import Foundation

/// Where the "Me" button leads. A pupil signed in with their pictures sees
/// their profile with "Not me" (the next child signs in); a device that
/// knows a school server offers the picture sign-in; otherwise the pupil
/// gives a name and draws a picture, as without any server.
public enum MeRoute: Equatable, Sendable {
    case profile(signedInPupil: Bool)
    case pictureSignIn(server: String)

    public static func decide(signIn: SchoolSignIn?, rememberedServer: String?, now: Date) -> MeRoute {
        if let signIn, !signIn.isTeacher, signIn.isValid(at: now) { return .profile(signedInPupil: true) }
        // A teacher signed in on this computer is not a pupil: the pupils'
        // picture sign-in would replace the teacher's sign-in, so it waits
        // until the teacher signs out.
        if signIn?.isTeacher == true && signIn?.isValid(at: now) == true { return .profile(signedInPupil: false) }
        if let server = rememberedServer ?? signIn?.server { return .pictureSignIn(server: server) }
        return .profile(signedInPupil: false)
    }
}
