import Foundation

/// How the teacher's window opens on this device.
///
/// - A PIN set here is always asked for, even with a teacher signed in to
///   the school server (a sign-in stays on the laptop for days; the PIN
///   keeps children out meanwhile).
/// - Without a PIN, a teacher signed in to the server is let in: it is
///   their laptop.
/// - Without either, on a computer that has never known a school server,
///   the first person to come chooses the PIN: whoever sets up a computer
///   without a server is its teacher.
/// - A computer that knows a school server, or whose set-up cannot be read,
///   never offers a new PIN: a teacher signs in at the server first.
/// - A kiosk whose closing needs the PIN (`kiosk`) opens only with the PIN:
///   without one set, nobody standing there may choose it, and a sign-in
///   left on the laptop opens nothing (the window would let them quit).
///   The school's IT sets the PIN (`set-teacher-pin`), or the teacher does
///   before turning the kiosk's lock on.
public enum TeacherAccess: Equatable, Sendable {
    case signedIn(name: String)
    case askPIN
    case choosePIN
    case signInAtServer
    case kioskWithoutPIN

    public static func decide(signIn: SchoolSignIn?, device: DeviceClassroom, now: Date,
                              kiosk: Bool = false) -> TeacherAccess {
        if device.pin != nil { return .askPIN }
        if kiosk { return .kioskWithoutPIN }
        if let signIn, signIn.isTeacher, signIn.isValid(at: now) { return .signedIn(name: signIn.name) }
        if device.unreadable || device.server != nil || signIn != nil { return .signInAtServer }
        return .choosePIN
    }
}
