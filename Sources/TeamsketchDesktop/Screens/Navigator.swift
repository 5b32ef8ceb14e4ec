import Foundation
import LearnModel
import TeamsketchCore

/// Where a screen's buttons lead and where it reports what went wrong: the
/// app shell, seen only through what screens ask of it. A screen moved to
/// it takes this and the services it uses instead of the whole app (not
/// every screen has moved yet).
@MainActor
protocol Navigator: AnyObject {
    /// The window dialogs and file choosers open over.
    var window: Widget? { get }
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
}
