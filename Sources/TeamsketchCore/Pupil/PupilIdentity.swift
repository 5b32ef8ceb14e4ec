import Foundation
import LearnModel
import LearnStore

/// Who draws on this device, and what changes it: a pupil signing in with
/// their pictures, "Not me", a name typed when joining, and the name and
/// picture saved on "Me".
///
/// - A pupil signed in draws under their account's name: they cannot
///   rename themselves, so a classmate's work never carries their name.
/// - Their picture is the one synced for their account (none on a device
///   they never used); a synced picture that fails `AvatarPNG`'s checks is
///   left out, and the name is set whatever happens to the picture.
/// - What a signed-in pupil saves on "Me" becomes their account's profile,
///   sent with the next sync round (asked for at once), so every device
///   they use shows it.
@MainActor
public struct PupilIdentity {
    public let preferences: DevicePreferences
    /// The profile synced for an account, if this device has one.
    public var syncedProfile: @Sendable (_ accountID: AccountID) throws -> ProfileRecord?
    /// Keeps an account's profile for the server.
    public var publish: @Sendable (_ accountID: AccountID, _ profile: ProfileRecord) throws -> Void
    /// Asks for a sync round.
    public var changed: @Sendable () -> Void

    public init(preferences: DevicePreferences,
                syncedProfile: @escaping @Sendable (AccountID) throws -> ProfileRecord?,
                publish: @escaping @Sendable (AccountID, ProfileRecord) throws -> Void,
                changed: @escaping @Sendable () -> Void) {
        self.preferences = preferences
        self.syncedProfile = syncedProfile
        self.publish = publish
        self.changed = changed
    }

    /// Over the device's store; without one, no profile is synced or kept.
    public static func live(_ preferences: DevicePreferences, store: LocalStore?,
                            changed: @escaping @Sendable () -> Void) -> PupilIdentity {
        PupilIdentity(preferences: preferences, syncedProfile: { try store?.profile(accountID: $0.text) },
                      publish: { try store?.setProfile(accountID: $0.text, $1) }, changed: changed)
    }

    /// A pupil signed in with their pictures.
    public func pupilSignedIn(_ signIn: SchoolSignIn) throws(PreferencesError) {
        let synced = (try? syncedProfile(signIn.accountID)) ?? nil
        let picture = synced?.avatarPNG.flatMap { AvatarPNG.isAcceptable($0) ? $0 : nil }
        try preferences.setIdentity(name: signIn.name, avatarPNG: picture)
    }

    /// "Not me": the pupil signed in here left; the device draws under the
    /// fallback name ("Pupil"), without a picture, until the next one signs in.
    public func notMe() throws(PreferencesError) {
        try preferences.setIdentity(name: Profile.fallback(userName: nil).name, avatarPNG: nil)
    }

    /// The name typed when joining becomes the pupil's name here (a pupil
    /// signed in keeps their account's name).
    public func typedName(_ name: String, signIn: SchoolSignIn?) throws(PreferencesError) {
        if let signIn, !signIn.isTeacher { return }
        try preferences.rename(to: name)
    }

    /// The pupil's new name and picture from "Me".
    public func save(name: String, avatarPNG: Data?, signIn: SchoolSignIn?, now: Date) throws {
        let pupil = signIn.flatMap { $0.isTeacher ? nil : $0 }
        try preferences.setIdentity(name: pupil?.name ?? name, avatarPNG: avatarPNG)
        guard let pupil else { return }
        try publish(pupil.accountID, ProfileRecord(name: preferences.profile.name, avatarPNG: preferences.profile.avatarPNG,
                                                   at: UnixMilliseconds.milliseconds(now)))
        changed()
    }
}
