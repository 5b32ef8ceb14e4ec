import Foundation
import LearnStore
import TeamsketchCore

/// The services screens use, built by the shell once the store is open:
/// each over the device's store (its `unavailable` value without one) and
/// the school link. A change other devices must hear of (a grade, a word
/// list, a sketch thrown away…) asks the link for a sync round at once.
@MainActor
struct AppServices {
    let gradeBook: GradeBook
    let sketchLibrary: SketchLibrary
    let wordLists: WordListShelf
    let classSettings: ClassSettingsBook
    /// The signed-in teacher's pupils, shared by every grade screen.
    let teacherRoster: TeacherRoster
    /// The calls of the teacher signed in now (see `SchoolLink.office`).
    var schoolOffice: SchoolOffice { school.office }
    private let school: SchoolLink
    /// Who draws here, and what a sign-in or a new name changes.
    let identity: PupilIdentity

    init(store: LocalStore?, school: SchoolLink, preferences: DevicePreferences) {
        let askForSync: @Sendable () -> Void = { [weak school] in Task { @MainActor in school?.syncNow() } }
        gradeBook = store.map { GradeBook.live($0, kept: askForSync) } ?? .unavailable
        sketchLibrary = store.map { SketchLibrary.live($0, changed: askForSync) } ?? .unavailable
        wordLists = store.map { WordListShelf.live($0, changed: askForSync) } ?? .unavailable
        classSettings = store.map { ClassSettingsBook.live($0, changed: askForSync) } ?? .unavailable
        teacherRoster = TeacherRoster(school.teacherRoster)
        self.school = school
        identity = PupilIdentity.live(preferences, store: store, changed: askForSync)
    }
}
