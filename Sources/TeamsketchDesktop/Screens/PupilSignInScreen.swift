import CGtk
import Foundation
import LearnModel
import LearnRender
import SchoolClient
import TeamsketchCore

/// A pupil signs in on a shared laptop without typing: their class (the
/// device remembers it), their name in a grid, then their three pictures of
/// nine. What a sign-in means (whose strokes, which settings) is decided by
/// the app and the core; this screen only asks.
@MainActor
final class PupilSignInScreen {
    let widget: Widget
    private weak var app: TeamsketchApp?
    private let client: SchoolServerClient?
    private let directory: PupilDirectory?
    private let content: Widget
    private let message: Widget
    private var password = PicturePassword()
    private var slots: [Widget] = []
    private var busy = false

    init(app: TeamsketchApp, server: String, trustedCertificates: String?, rememberedClass: String?) {
        self.app = app
        client = app.school.client(for: server, trustedCertificates: trustedCertificates)
        directory = client?.pupilDirectory(trustedCertificates: trustedCertificates)
        content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        message = UI.label("", classes: ["form-message"])
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(widget)
        UI.append(widget, content)
        UI.append(widget, message)
        // Smaller than the choices above: a laptop's 768 rows hold the
        // picture keys and these.
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["choice"]) { [weak app] in app?.showHome() }
        let withoutServer = UI.button(`_`("Without the school server"), icon: "document-edit-symbolic", classes: ["choice"]) { [weak app] in
            app?.showProfile(offline: true)
        }
        // Always there: a remembered class may be gone, or the child may
        // be a visitor from another class.
        let otherClass = UI.button(`_`("Another class"), icon: "go-up-symbolic", classes: ["choice"]) { [weak self] in
            self?.showClasses()
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 24, [back, otherClass, withoutServer])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        if let rememberedClass { showPupils(classID: rememberedClass) } else { showClasses() }
    }

    func close() {
        let client = client
        Task { await client?.shutdown() }
    }

    private func title(_ text: String) -> Widget { UI.label(text, classes: ["home-title"]) }

    private func grid(_ children: [Widget], columns: Int) -> Widget {
        let g = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(g), 12)
        gtk_grid_set_column_spacing(ts_grid(g), 12)
        gtk_widget_set_halign(g, GTK_ALIGN_CENTER)
        for (i, c) in children.enumerated() {
            gtk_grid_attach(ts_grid(g), c, Int32(i % columns), Int32(i / columns), 1, 1)
        }
        return g
    }

    /// Runs a question to the server; the screen waits, and says so when
    /// the server does not answer.
    private func ask<T: Sendable>(_ question: @escaping @Sendable () async throws -> T,
                                  then: @escaping @MainActor (T) -> Void) {
        guard !busy else { return }
        busy = true
        UI.setText(message, "")
        Task { @MainActor [weak self] in
            let result: Result<T, PupilDirectory.Failure>
            do { result = .success(try await question()) } catch { result = .failure(PupilDirectory.Failure(error)) }
            guard let self else { return }
            self.busy = false
            switch result {
            case .success(let value): then(value)
            case .failure(let failure): self.show(failure)
            }
        }
    }

    private func show(_ failure: PupilDirectory.Failure) {
        switch failure {
        case .wrongPictures: UI.setText(message, `_`("Those are not your pictures. Try again!"))
        case .tooManyTries: UI.setText(message, `_`("Too many tries. Please ask your teacher."))
        case .unreachable: UI.setText(message, `_`("The school server does not answer. Please ask your teacher."))
        }
    }

    // MARK: steps

    private func showClasses() {
        guard let directory else { return show(.unreachable) }
        ask({ try await directory.classes() }) { [weak self] classes in
            guard let self else { return }
            UI.clear(self.content)
            UI.append(self.content, self.title(`_`("Which is your class?")))
            let buttons = classes.map { c in
                UI.button(c.name, icon: "system-users-symbolic", classes: ["big-button"]) { [weak self] in
                    self?.showPupils(classID: c.id)
                }
            }
            UI.append(self.content, self.grid(buttons, columns: 4))
        }
    }

    private func showPupils(classID: String) {
        guard let directory else { return show(.unreachable) }
        ask({ try await directory.pupils(classID) }) { [weak self] pupils in
            guard let self else { return }
            UI.clear(self.content)
            UI.append(self.content, self.title(`_`("Who are you?")))
            let buttons = pupils.map { p in
                let b = gtk_button_new()!
                let face = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [Avatar.make(name: p.name, size: 64),
                                                                         UI.label(p.name, classes: ["card-name"])])
                gtk_button_set_child(ts_button(b), face)
                UI.style(b, ["pupil-card"])
                UI.accessibleLabel(b, p.name)
                Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.showPictures(pupil: p, classID: classID) }
                return b
            }
            UI.append(self.content, self.grid(buttons, columns: 6))
        }
    }

    private func showPictures(pupil: PupilDirectory.Choice, classID: String) {
        password.reset()
        UI.clear(content)
        UI.setText(message, "")
        let who = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [Avatar.make(name: pupil.name, size: 64),
                                                                   UI.label(pupil.name, classes: ["home-title"])])
        gtk_widget_set_halign(who, GTK_ALIGN_CENTER)
        UI.append(content, who)
        slots = (0..<PicturePassword.length).map { i in
            let slot = gtk_drawing_area_new()!
            gtk_widget_set_size_request(slot, 72, 72)
            UI.setDrawFunc(slot) { [weak self] cr, w, h in
                cairo_set_source_rgb(cr, 0.91, 0.94, 1)
                cairo_rectangle(cr, 0, 0, Double(w), Double(h))
                cairo_fill(cr)
                guard let self, i < self.password.chosen.count else { return }
                let picture = PicturePassword.pictures[self.password.chosen[i]]
                SessionSignRenderer.drawPicture(picture, in: cr, x: 6, y: 6, size: Double(min(w, h)) - 12)
            }
            return slot
        }
        let erase = UI.iconButton("edit-clear-symbolic", tooltip: `_`("Take back the last picture"), classes: ["pin-key"]) {
            [weak self] in
            self?.password.removeLast()
            self?.refreshSlots()
        }
        let slotRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, slots + [erase])
        gtk_widget_set_halign(slotRow, GTK_ALIGN_CENTER)
        UI.append(content, slotRow)
        let pictures = PicturePassword.pictures.enumerated().map { index, picture in
            let area = gtk_drawing_area_new()!
            gtk_widget_set_size_request(area, 96, 96)
            UI.setDrawFunc(area) { cr, w, h in
                SessionSignRenderer.drawPicture(picture, in: cr, x: 4, y: 4, size: Double(min(w, h)) - 8)
            }
            let b = gtk_button_new()!
            gtk_button_set_child(ts_button(b), area)
            UI.style(b, ["picture-key"])
            UI.accessibleLabel(b, picture.localizedName)
            gtk_widget_set_tooltip_text(b, picture.localizedName)
            Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.tap(index, pupil: pupil, classID: classID) }
            return b
        }
        UI.append(content, grid(pictures, columns: 3))
    }

    private func refreshSlots() {
        for s in slots { gtk_widget_queue_draw(s) }
    }

    private func tap(_ index: Int, pupil: PupilDirectory.Choice, classID: String) {
        guard !busy, password.tap(index) else { return }
        refreshSlots()
        guard password.isComplete, let directory else { return }
        let pictures = password.chosen
        ask({ try await directory.signIn(pupil.id, pictures) }) { [weak self] signIn in
            self?.app?.pupilSignedIn(signIn)
        }
        // A wrong try starts the three pictures again.
        password.reset()
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: .milliseconds(400))
            self?.refreshSlots()
        }
    }
}
