import Foundation
import LearnModel
import TeamsketchCore

/// Who is at this device: "Me" (the pupil's name and picture, or the
/// pupils' picture sign-in on a school's computer: `MeRoute` decides), a
/// pupil signing in or saying "Not me", and a name typed when joining.
/// What each changes is `PupilIdentity`'s rule; this opens the screens
/// and tells the school link and the start screen.
@MainActor
final class MeDesk {
    private unowned let app: TeamsketchApp

    init(app: TeamsketchApp) { self.app = app }

    func show(offline: Bool = false) {
        app.leaveCanvas()
        close()
        let device = app.preferences.device
        let route = offline ? .profile(signedInPupil: false)
            : MeRoute.decide(signIn: app.school.signIn, rememberedServer: device.server, now: Date())
        switch route {
        case .profile(let signedInPupil):
            let screen = ProfileScreen(nav: app, profile: app.preferences.profile, signedInPupil: signedInPupil) {
                [weak self] name, png in try self?.save(name: name, avatarPNG: png)
            }
            app.replace(.profile, with: screen.widget, owner: screen)
        case .pictureSignIn(let server):
            let screen = PupilSignInScreen(nav: app, directory: app.school.pupilDirectory(server: server, trustedCertificates: device.trustedCertificates),
                                           rememberedClass: device.classID) { [preferences = app.preferences] in
                preferences.soundClient { .live() }
            }
            app.replace(.profile, with: screen.widget, owner: screen)
        }
    }

    /// Lets go of the "Me" page's screen (and its server connection).
    func close() {
        (app.pages?[.profile] as? ProfileScreen)?.close()
        (app.pages?[.profile] as? PupilSignInScreen)?.close()
        app.pages?.forget(.profile)
    }

    /// A pupil signed in with their pictures; their class's settings apply.
    func pupilSignedIn(_ signIn: SchoolSignIn) {
        app.school.adopt(signIn)
        logProblems { try app.services.identity.pupilSignedIn(signIn) }
        app.adoptSyncedClassSettings()
        app.showHome()
    }

    /// "Not me": the pupil signed in here leaves; the next one signs in.
    func notMe() {
        app.school.signOut()
        app.preferences.adoptClassSettings(nil)
        logProblems { try app.services.identity.notMe() }
        show()
    }

    func save(name: String, avatarPNG: Data?) throws {
        try app.services.identity.save(name: name, avatarPNG: avatarPNG, signIn: app.school.signIn, now: Date())
    }

    func typedName(_ name: String) {
        logProblems { try app.services.identity.typedName(name, signIn: app.school.signIn) }
    }
}
