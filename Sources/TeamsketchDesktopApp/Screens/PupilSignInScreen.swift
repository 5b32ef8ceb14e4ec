import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// A pupil signs in on a shared laptop without typing: their class (the
/// device remembers it), their name in a grid, then their three pictures of
/// nine. What a sign-in means (whose strokes, which settings) is decided by
/// the app and the core; this screen only asks.
@MainActor
final class PupilSignInScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let directory: PupilDirectory?
    private let makeSounds: @MainActor () -> SoundClient
    private let content: Widget
    private let message: Widget
    /// A wrong try's big red mark beside the words, for a child who does
    /// not read them yet (with the game's "wrong" sound).
    private let wrongMark: Widget
    /// Made at the first wrong try and kept: a player a try would leak.
    private var sounds: SoundClient?
    private var password = PicturePassword()
    private var slots: [Widget] = []
    private var busy = false

    /// `directory`: the school's classes and pictures (nil: the server's
    /// address cannot be used); `sounds`: the player, as the class's sounds
    /// are.
    init(nav: any Navigator, directory: PupilDirectory?, rememberedClass: SchoolClassID?,
         sounds: @escaping @MainActor () -> SoundClient) {
        self.nav = nav
        self.directory = directory
        makeSounds = sounds
        content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        message = UI.label("", classes: ["form-message"])
        wrongMark = gtk_image_new_from_icon_name("dialog-error-symbolic")!
        gtk_image_set_pixel_size(ts_image(wrongMark), 64)
        UI.style(wrongMark, ["wrong-mark"])
        gtk_widget_set_visible(wrongMark, 0)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(widget)
        UI.append(widget, content)
        let said = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [wrongMark, message])
        gtk_widget_set_halign(said, GTK_ALIGN_CENTER)
        UI.append(widget, said)
        // Smaller than the choices above: a laptop's 768 rows hold the
        // picture keys and these.
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["choice"]) { [weak nav] in nav?.showHome() }
        let withoutServer = UI.button(`_`("Without the school server"), icon: "document-edit-symbolic", classes: ["choice"]) { [weak nav] in
            nav?.showProfile(offline: true)
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
        let directory = directory
        Task { await directory?.close() }
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
        gtk_widget_set_visible(wrongMark, 0)
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
        case .wrongPictures:
            UI.setText(message, `_`("Those are not your pictures. Try again!"))
            gtk_widget_set_visible(wrongMark, 1)
            if sounds == nil { sounds = makeSounds() }
            sounds?.play(.springBack)
            FileHandle.standardError.write(Data("sign-in: wrong pictures\n".utf8))
        case .tooManyTries: UI.setText(message, `_`("Too many tries. Please ask your teacher."))
        case .unreachable: UI.setText(message, `_`("The school server does not answer. Please ask your teacher."))
        case .unknownCode: UI.setText(message, `_`("That is not a class code. Please ask your teacher."))
        // The class is not (or no longer) one this device may show: the
        // classes it may, and the code field.
        case .unknownClass: showClasses()
        }
    }

    // MARK: steps

    /// The classes this device may show; under them, for the teacher, the
    /// field for a class's code (the only thing there on a new device).
    private func showClasses(code: String? = nil) {
        guard let directory else { return show(.unreachable) }
        ask({ try await directory.classes(code) }) { [weak self] classes in
            guard let self else { return }
            UI.clear(self.content)
            UI.append(self.content, self.title(classes.isEmpty ? `_`("Ask your teacher for the class code") : `_`("Which is your class?")))
            let buttons = classes.map { c in
                UI.button(c.name, icon: "system-users-symbolic", classes: ["big-button"]) { [weak self] in
                    self?.showPupils(classID: c.id)
                }
            }
            if !buttons.isEmpty { UI.append(self.content, self.grid(buttons, columns: 4)) }
            UI.append(self.content, self.codeRow())
        }
    }

    private func codeRow() -> Widget {
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(ts_entry(entry), `_`("Class code"))
        UI.accessibleLabel(entry, `_`("Class code"))
        UI.style(entry, ["form-entry"])
        gtk_widget_set_size_request(entry, 240, -1)
        let open = UI.button(`_`("Show the class"), icon: "go-next-symbolic", classes: ["choice"]) { [weak self] in
            let typed = UI.entryText(entry).trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else { return }
            self?.showClasses(code: typed)
        }
        Signal.connect(UI.raw(entry), "activate") { gtk_widget_activate(open) }
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [entry, open])
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        return row
    }

    private func showPupils(classID: SchoolClassID) {
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

    private func showPictures(pupil: PupilDirectory.PupilChoice, classID: SchoolClassID) {
        password.reset()
        UI.clear(content)
        UI.setText(message, "")
        gtk_widget_set_visible(wrongMark, 0)
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

    private func tap(_ index: Int, pupil: PupilDirectory.PupilChoice, classID: SchoolClassID) {
        guard !busy, password.tap(index) else { return }
        refreshSlots()
        guard password.isComplete, let directory else { return }
        let pictures = password.chosen
        ask({ try await directory.signIn(pupil.id, pictures) }) { [weak self] signIn in
            self?.nav?.pupilSignedIn(signIn)
        }
        // A wrong try starts the three pictures again.
        password.reset()
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: .milliseconds(400))
            self?.refreshSlots()
        }
    }
}
