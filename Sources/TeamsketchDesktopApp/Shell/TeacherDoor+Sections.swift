import CGtk
import Foundation
import TeamsketchCore

extension TeacherDoor {
    /// What the teacher's window uses: its sections, each given only the
    /// services it shows, and this computer's settings.
    func desk() -> TeacherScreen.Desk {
        let app = app
        let services = app.services
        let office: @MainActor () -> SchoolOffice = { [unowned app] in app.services.schoolOffice }
        return TeacherScreen.Desk(
            makeSection: { [unowned app] section, toast in
                switch section {
                case .sketches:
                    let view = TeacherSketchesView(library: services.sketchLibrary, book: services.gradeBook,
                                                   roster: services.teacherRoster, own: app.preferences.profile, nav: app)
                    gtk_widget_set_margin_start(view.widget, 12)
                    gtk_widget_set_margin_end(view.widget, 12)
                    return (view, view.widget)
                case .wordPost:
                    let view = TeacherWordPostView(nav: app, book: services.gradeBook, grading: app.pupilGrading(sketch: nil),
                                                   pictures: services.sketchLibrary, own: app.preferences.profile) {
                        [unowned app] in
                        TeacherPoolsView(nav: app, shelf: services.wordLists, allPools: { app.wordPools.offer().pools },
                                         office: office, toast: toast)
                    }
                    return (view, view.widget)
                case .grades:
                    let view = TeacherGradesView(book: services.gradeBook, roster: services.teacherRoster, nav: app)
                    return (view, view.widget)
                case .deleted:
                    let view = TeacherDeletedView(library: services.sketchLibrary, nav: app)
                    return (view, view.widget)
                case .classes:
                    let view = TeacherClassesView(nav: app, office: office, roster: services.teacherRoster,
                                                  isTeacher: { app.school.signIn?.isTeacher == true },
                                                  syncNow: { app.school.syncNow() }, toast: toast)
                    return (view, view.widget)
                case .settings:
                    return nil
                }
            },
            office: office, classSettings: services.classSettings, preferences: app.preferences,
            showClassWall: { [weak self] in self?.showClassWall() },
            setDeviceSettings: { [weak self] settings in self?.setDeviceSettings(settings) },
            setKiosk: { [weak self] file in self?.setKiosk(file) })
    }
}
