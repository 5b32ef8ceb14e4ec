import Foundation
import LearnModel
import TeamsketchCore

/// Where a screen's buttons lead and where it reports what went wrong: the
/// app shell, seen only through what screens ask of it. A screen takes
/// this and the services it uses, never the whole app.
@MainActor
protocol Navigator: AnyObject {
    /// The window dialogs and file choosers open over.
    var window: Widget? { get }
    /// The reader aloud as the class's sounds are now (silent when off).
    var voice: Voice { get }
    func showError(_ title: String, _ error: any Error)
    func showHome()
    func showGallery()
    /// Back from a review to the teacher's section it was opened from.
    func showTeacherSketches()
    func showSketchReview(_ id: UUID, from section: TeacherScreen.Section)
    /// A sketch from the store, in the editor.
    func open(_ doc: SketchDocument)
    /// A .xopp or .teamsketch file, imported and opened.
    func openFile(_ path: String)
    func showFeedback(on sketch: SketchDocument, _ feedback: PupilFeedback)
    /// "Me": the pupil's name and picture, or the picture sign-in
    /// (`offline`: the name and picture even so).
    func showProfile(offline: Bool)
    func showNewSketch(together: Bool)
    func showJoin(activity: any ActivityLobbyUI)
    func showWordPost()
    /// `settingUpClass`: the first start's "This laptop belongs to a class".
    func showSchool(settingUpClass: Bool)
    func showFirstRun()
    /// The teacher button: the window, the PIN, or the school server.
    func showTeacher()
    func lockTeacher()
    func startSketch(_ meta: SketchMeta)
    func hostSession(_ meta: SketchMeta)
    func startWordPost(pool: WordPool)
    func hostWordPost(pool: WordPool)
    /// A pupil signed in with their pictures.
    func pupilSignedIn(_ signIn: SchoolSignIn)
    /// "Not me": the pupil signed in here leaves.
    func notMe()
}

extension Navigator {
    func showProfile() { showProfile(offline: false) }
    func showNewSketch() { showNewSketch(together: false) }
    func showJoin() { showJoin(activity: SketchLobbyUI()) }
    func showSchool() { showSchool(settingUpClass: false) }

    /// A sketch's change could not be stored: the person is told, the
    /// drawing stays on screen.
    func reportSaveFailure(_ failure: SketchSaveError) {
        showError(`_`("Your drawing could not be saved."), failure)
    }
}
