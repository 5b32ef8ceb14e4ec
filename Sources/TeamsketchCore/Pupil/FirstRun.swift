import Foundation

/// A classroom laptop's first start asks how it is used: it belongs to a
/// class (the teacher finds the school server, signs in once and picks
/// the class; from then on the start screen offers the pupils' picture
/// sign-in) or it is used without a server. Without this a fresh laptop
/// showed a profile called "Pupil" and offered the picture sign-in only
/// after a teacher had signed in and out again.
public enum FirstRun {
    /// Asked until one of the two is chosen. A laptop already in use is
    /// not asked: it knows a school server, has a teacher's PIN, or someone
    /// is signed in. A damaged set-up file is not asked about either (the
    /// teacher sorts that out; a child must not be able to reset it), nor
    /// is a kiosk, which its administrator set up.
    public static func asks(device: DeviceClassroom, signIn: SchoolSignIn?, kiosk: Bool) -> Bool {
        !kiosk && !device.unreadable && !device.standalone && device.server == nil && device.pin == nil
            && signIn == nil
    }
}
