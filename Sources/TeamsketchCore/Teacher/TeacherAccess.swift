import Foundation

/// How the teacher's window opens on this device. A teacher signed in to
/// the school server is let in at once; otherwise the device's PIN is
/// asked for. A device with neither asks the first person to come for a
/// new PIN: on a machine without a server, whoever sets it up is the
/// teacher, and from then on the PIN guards it.
public enum TeacherAccess: Equatable, Sendable {
    case signedIn(name: String)
    case askPIN
    case choosePIN

    public static func decide(signIn: SchoolSignIn?, pin: TeacherPIN?, now: Date) -> TeacherAccess {
        if let signIn, signIn.isTeacher, signIn.isValid(at: now) { return .signedIn(name: signIn.name) }
        return pin == nil ? .choosePIN : .askPIN
    }
}
