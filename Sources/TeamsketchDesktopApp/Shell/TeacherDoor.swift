import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The teacher's window and what opens it: the teacher button (whether it
/// opens, asks for the PIN or sends the teacher to the school server is
/// `TeacherAccess`'s decision), the PIN (`TeacherUnlock`), the window's
/// sections, a sketch's review, the class wall and the kiosk switches that
/// wait for a PIN. Locking closes all of it.
@MainActor
final class TeacherDoor {
    unowned let app: TeamsketchApp
    /// Whether the window is open (unlocked) in this run, and under whose
    /// name (nil: the computer's PIN, nobody signed in): going back from a
    /// review does not ask for the PIN again.
    private var openFor: String??
    /// The section a review was opened from (the sketches, or the grades).
    private var reviewOrigin: TeacherScreen.Section = .sketches
    /// The class wall, while it is open.
    private var wall: (window: Widget, view: ClassWallView)?
    /// Kiosk switches waiting for the PIN the teacher is choosing.
    private var kioskAfterPIN: KioskConfigFile?

    init(app: TeamsketchApp) { self.app = app }

    var isOpen: Bool { openFor != nil }

    /// The teacher button.
    func knock() {
        app.leaveCanvas()
        kioskAfterPIN = nil
        switch TeacherAccess.decide(signIn: app.school.signIn, device: app.preferences.device, now: Date(),
                                    kiosk: app.preferences.kiosk.quitNeedsPIN) {
        case .signedIn(let name): open(name: name)
        case .askPIN: showPIN(.enter)
        case .choosePIN: showPIN(.choose)
        case .signInAtServer:
            app.showSchool()
            Alert.show(parent: app.window, title: `_`("Teachers sign in at the school server"),
                       message: `_`("This computer belongs to a school with a server. Sign in there with your teacher's name and password; then the teacher button opens your window."))
        case .kioskWithoutPIN:
            FileHandle.standardError.write(Data("kiosk: no teacher PIN is set\n".utf8))
            Alert.show(parent: app.window, title: `_`("This kiosk has no teacher PIN"),
                       message: `_`("The teacher's window and closing need the teacher's PIN, and none is set on this computer. The school's IT sets one with: TeamsketchDesktop set-teacher-pin"))
        }
    }

    private func showPIN(_ mode: TeacherPINScreen.Mode) {
        let screen = TeacherPINScreen(door: self, mode: mode, nav: app)
        app.replace(.teacherPIN, with: screen.widget, owner: screen)
        screen.focus()
    }

    /// A typed PIN; the right one opens the window.
    func unlock(pin: String, answer: @escaping @MainActor (TeacherPINGate.Answer) -> Void) {
        Task { @MainActor in
            let result = await TeacherUnlock(preferences: app.preferences).check(pin, recordFailed: logProblem)
            answer(result)
            let signIn = app.school.signIn
            if result == .open { open(name: signIn?.isTeacher == true ? signIn?.name : nil) }
        }
    }

    func choosePIN(_ pin: String) {
        Task { @MainActor in
            do {
                guard try await TeacherUnlock(preferences: app.preferences).choose(pin) else { return }
            } catch {
                return app.showError(`_`("The PIN could not be saved."), error)
            }
            if let kiosk = kioskAfterPIN {
                kioskAfterPIN = nil
                setKiosk(kiosk)
            }
            // Setting up a computer: the settings come first. Chosen from
            // the teacher's window (to lock the kiosk), it opens again as
            // it was, under the signed-in teacher's name.
            open(name: openFor ?? nil, section: .settings)
        }
    }

    private func open(name: String?, section: TeacherScreen.Section = .sketches) {
        openFor = .some(name)
        let screen = TeacherScreen(nav: app, desk: desk(), teacherName: name, section: section)
        app.replace(.teacher, with: screen.widget, owner: screen)
    }

    func lock() {
        openFor = nil
        closeReview()
        closeClassWall()
        app.pages?.remove(.teacher)
        app.showHome()
    }

    /// Back from a review to the (fresh) section it was opened from.
    func backFromReview() {
        closeReview()
        guard let name = openFor else { return app.showHome() }
        open(name: name, section: reviewOrigin)
    }

    /// The class wall opens in a window of its own, so the teacher can put
    /// it on the projector and keep working here; only from the unlocked
    /// teacher's window, watching under the teacher's name.
    func showClassWall() {
        guard let name = openFor else { return }
        if let wall { return gtk_window_present(ts_window(wall.window)) }
        let teacher = app.school.signIn?.isTeacher == true
        let view = ClassWallView(nav: app, discovery: app.discovery, sessions: .live,
                                 keepSharedSketch: app.keepSharedSketch,
                                 office: teacher ? app.services.schoolOffice : nil, watcherName: name ?? `_`("Teacher")) {
            [weak self] in self?.closeClassWall()
        }
        let win = app.newWindow()
        gtk_window_set_title(ts_window(win), `_`("Class wall"))
        gtk_window_set_default_size(ts_window(win), 1200, 800)
        gtk_window_set_child(ts_window(win), view.widget)
        view.attachKeys(to: win)
        Signal.connectBool(UI.raw(win), "close-request") { [weak self] in
            // Every group is left when the wall goes, however it is closed.
            self?.wall?.view.stop()
            self?.wall = nil
            return false
        }
        wall = (win, view)
        gtk_window_present(ts_window(win))
    }

    func closeClassWall() {
        if let wall { gtk_window_close(ts_window(wall.window)) }
    }

    func showReview(_ id: UUID, from section: TeacherScreen.Section) {
        guard isOpen else { return }
        reviewOrigin = section
        do {
            let screen = SketchReviewScreen(document: try app.services.sketchLibrary.load(id), book: app.services.gradeBook,
                                            pupilGrading: app.pupilGrading(sketch: id), nav: app)
            app.replace(.review, with: screen.widget, owner: screen)
        } catch {
            app.showError(`_`("This sketch could not be opened."), error)
        }
    }

    private func closeReview() {
        (app.pages?[.review] as? SketchReviewScreen)?.close()
        app.pages?.remove(.review)
    }

    /// The teacher set this machine's kiosk switches: saved, and the
    /// window follows at once. Locking a computer without a PIN asks for
    /// one first.
    func setKiosk(_ file: KioskConfigFile) {
        let preferences = app.preferences
        if file.locksWithoutPIN(hasPIN: preferences.device.pin != nil) {
            kioskAfterPIN = file
            return showPIN(.choose)
        }
        do {
            try preferences.setKiosk(file)
        } catch {
            return app.showError(`_`("The settings could not be saved."), error)
        }
        guard let window = app.window else { return }
        if preferences.kiosk.fullscreen { gtk_window_fullscreen(ts_window(window)) } else { gtk_window_unfullscreen(ts_window(window)) }
        app.home?.showActivities(preferences.settings)
    }

    /// The teacher changed this computer's settings: the start screen
    /// follows at once; an open sketch keeps its tools until reopened.
    func setDeviceSettings(_ settings: ClassroomSettings) {
        do {
            try app.preferences.setDeviceSettings(settings)
        } catch {
            app.showError(`_`("The settings could not be saved."), error)
        }
        app.home?.showActivities(app.preferences.settings)
    }
}
