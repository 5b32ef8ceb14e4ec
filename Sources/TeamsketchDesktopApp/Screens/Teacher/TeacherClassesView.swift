import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The teacher's classes and pupils on the school server: make a class,
/// rename it in place, archive it (after asking, with Undo; its pupils can
/// no longer sign in) and restore it from the archived classes shown on
/// demand, add pupils one by one or from a class list (CSV, bad rows listed
/// by line), and give pupils new picture passwords (after asking) — shown
/// at once for one pupil, or for the whole class as a sheet to print (the
/// only moment the pictures are known: the server keeps them only as a
/// hash, which is also why new pictures cannot be undone).
@MainActor
final class TeacherClassesView {
    let widget: Widget
    weak var nav: (any Navigator)?
    /// The signed-in teacher's calls to the server (`SchoolLink.office`).
    private let office: @MainActor () -> SchoolOffice
    /// The pupils grading shows, asked for again after any change here.
    private let roster: TeacherRoster
    private let isTeacher: @MainActor () -> Bool
    /// A sync round now, so this computer hears of a change at once.
    let syncNow: @MainActor () -> Void
    private let classRow: Widget
    private let pupilBox: Widget
    let status: Widget
    var classes: [SchoolOffice.SchoolClass] = []
    var selected: SchoolOffice.SchoolClass?
    /// Said under the class instead of the count once, after an action.
    var note: String?
    private let toast: UndoToast
    /// Whether the archived classes are listed too, to be restored.
    private var showsArchived = false
    /// The chosen class's pupils, and the box that lists them.
    private var pupils: [SchoolOffice.Pupil] = []
    private var pupilList: Widget?
    /// Counts the list's readings (`listPupils`).
    private var listings = 0
    /// Teacher accounts and passwords, under the classes (kept: GTK holds
    /// only its widgets).
    private var accounts: TeacherAccountsView?

    init(nav: any Navigator, office: @escaping @MainActor () -> SchoolOffice, roster: TeacherRoster,
         isTeacher: @escaping @MainActor () -> Bool, syncNow: @escaping @MainActor () -> Void, toast: UndoToast) {
        self.nav = nav
        self.office = office
        self.roster = roster
        self.isTeacher = isTeacher
        self.syncNow = syncNow
        self.toast = toast
        classRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        pupilBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        status = UI.label("", classes: ["hint"])
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 14)
        gtk_widget_set_margin_top(page, 12)
        gtk_widget_set_margin_start(page, 24)
        gtk_widget_set_margin_end(page, 24)
        widget = UI.scrolled(page)
        UI.expand(widget)
        guard isTeacher() else {
            UI.append(page, UI.label(`_`("Classes are kept on the school server. Sign in as a teacher with the server button on the start screen."), classes: ["hint"]))
            return
        }
        let newClass = gtk_entry_new()!
        gtk_entry_set_placeholder_text(ts_entry(newClass), `_`("New class"))
        UI.accessibleLabel(newClass, `_`("Name of the new class"))
        let add = UI.button(`_`("Add class"), classes: ["choice"]) { [weak self] in
            let name = UI.entryText(newClass).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return }
            gtk_editable_set_text(ts_editable(newClass), "")
            self?.run({ try await $0.createClass(name) }) { [weak self] _ in self?.loadClasses() }
        }
        Signal.connect(UI.raw(newClass), "activate") { gtk_widget_activate(add) }
        let archived = gtk_check_button_new_with_label(`_`("Show archived classes"))!
        Signal.connect(UI.raw(archived), "toggled") { [weak self] in
            self?.showsArchived = gtk_check_button_get_active(ts_check(archived)) != 0
            self?.loadClasses()
        }
        gtk_widget_set_size_request(archived, -1, 48)
        UI.append(page, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [classRow, newClass, add, archived]))
        UI.append(page, pupilBox)
        UI.append(page, status)
        let accounts = TeacherAccountsView(office: office, nav: nav)
        self.accounts = accounts
        UI.append(page, accounts.widget)
        loadClasses()
    }

    /// A call to the server as the teacher; failures are said in the status
    /// line (in `refused`'s words where it has some for the error). Any call but a `reading` one may have changed who is in the
    /// classes, even one whose answer was lost, so grading asks again.
    func run<T: Sendable>(reading: Bool = false,
                                  _ call: @escaping @Sendable (SchoolOffice) async throws -> T,
                                  then: @escaping @MainActor (T) -> Void,
                                  refused: (@MainActor (any Error) -> String?)? = nil) {
        let office = office()
        Task { @MainActor [weak self, roster] in
            defer { if !reading { roster.forget() } }
            do {
                then(try await call(office))
            } catch is SchoolOffice.NoTeacher {
                return
            } catch {
                self.map { UI.setText($0.status, refused?(error) ?? `_`("The school server did not do that. Please try again.")) }
            }
        }
    }

    /// The classes and the chosen class's pupils read again.
    func refresh() {
        guard isTeacher() else { return }
        if let selected { show(selected) }
        loadClasses()
    }

    func loadClasses() {
        let archived = showsArchived
        run(reading: true, { try await $0.classes(archived) }) { [weak self] classes in
            guard let self else { return }
            self.classes = classes
            UI.clear(self.classRow)
            if !classes.contains(where: { $0.id == self.selected?.id }) {
                // The class shown was archived (or is hidden again): show none, or the first.
                self.selected = nil
                self.pupilList = nil
                UI.clear(self.pupilBox)
                UI.setText(self.status, self.note ?? "")
                self.note = nil
            }
            var first: Widget?
            for c in classes {
                let b = gtk_toggle_button_new_with_label(c.archived ? String(format: `_`("%@ (archived)"), c.name) : c.name)!
                UI.style(b, ["choice"])
                if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
                if let shown = self.selected, c.id == shown.id {
                    gtk_toggle_button_set_active(ts_toggle(b), 1)
                    // The name or the archive may have changed; a count
                    // alone changes nothing shown, and making the page anew
                    // would take the keyboard from where it is.
                    var counted = shown
                    counted.pupilCount = c.pupilCount
                    if c != counted { self.show(c) } else { self.selected = c }
                }
                Signal.connect(UI.raw(b), "toggled") { [weak self] in
                    if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.show(c) }
                }
                UI.append(self.classRow, b)
            }
            // The first class is chosen to start with.
            if self.selected == nil, let b = first { gtk_toggle_button_set_active(ts_toggle(b), 1) }
        }
    }

    /// `typingNames`: the teacher is adding pupils (a class list was just
    /// imported), so the new page gives the keyboard to the next pupil's
    /// name: GTK would give it to the class's name, where a typed name
    /// renames the class.
    func show(_ schoolClass: SchoolOffice.SchoolClass, typingNames: Bool = false) {
        selected = schoolClass
        let id = schoolClass.id
        run(reading: true, { try await $0.pupils(id) }) { [weak self] pupils in
            guard let self, self.selected?.id == id else { return }
            UI.clear(self.pupilBox)
            UI.append(self.pupilBox, self.classHeader(schoolClass))
            let newPupil = gtk_entry_new()!
            gtk_entry_set_placeholder_text(ts_entry(newPupil), `_`("New pupil"))
            UI.accessibleLabel(newPupil, `_`("Name of the new pupil"))
            // The field empties at once and keeps the keyboard, so the next
            // name goes in here (never into the class's name above) while
            // the server adds this one; only the list below is read again.
            let add = UI.button(`_`("Add pupil"), classes: ["choice"]) { [weak self] in
                let name = UI.entryText(newPupil).trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { return }
                gtk_editable_set_text(ts_editable(newPupil), "")
                self?.run({ try await $0.addPupil(name, id) }) { [weak self] _ in
                    self?.listPupils(of: schoolClass)
                }
            }
            Signal.connect(UI.raw(newPupil), "activate") { gtk_widget_activate(add) }
            let importList = UI.button(`_`("Import class list (CSV)…"), classes: ["choice"]) { [weak self] in
                self?.importRoster(into: schoolClass)
            }
            let sheet = UI.button(`_`("New pictures for everyone…"), classes: ["choice"]) { [weak self] in
                guard let self else { return }
                self.newPicturesForEveryone(schoolClass, pupils: self.pupils)
            }
            UI.append(self.pupilBox, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [newPupil, add, importList, sheet]))
            let list = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
            self.pupilList = list
            UI.append(self.pupilBox, list)
            self.fill(list, with: pupils)
            if typingNames {
                gtk_widget_grab_focus(newPupil)
                FileHandle.standardError.write(Data("classes: the next pupil's name has the keyboard\n".utf8))
            }
        }
    }

    /// The chosen class's pupils read again into the list under the field.
    /// Names added quickly each ask; only the latest answer is shown, so an
    /// older one arriving late cannot hide the last pupil added.
    private func listPupils(of schoolClass: SchoolOffice.SchoolClass) {
        let id = schoolClass.id
        listings += 1
        let asked = listings
        run(reading: true, { try await $0.pupils(id) }) { [weak self] pupils in
            guard let self, self.selected?.id == id, asked == self.listings, let list = self.pupilList else { return }
            self.fill(list, with: pupils)
        }
    }

    private func fill(_ list: Widget, with pupils: [SchoolOffice.Pupil]) {
        self.pupils = pupils
        UI.clear(list)
        if pupils.isEmpty { UI.append(list, UI.label(`_`("No pupils in this class yet."), classes: ["hint"])) }
        for p in pupils { UI.append(list, row(p)) }
        UI.setText(status, note ?? String(format: `_`("Pupils: %d"), pupils.count))
        note = nil
    }

    /// The class's name, to edit in place, and Archive or Restore.
    private func classHeader(_ schoolClass: SchoolOffice.SchoolClass) -> Widget {
        let name = gtk_entry_new()!
        gtk_editable_set_text(ts_editable(name), schoolClass.name)
        UI.accessibleLabel(name, `_`("Name of the class"))
        UI.style(name, ["form-entry"])
        gtk_widget_set_size_request(name, 240, -1)
        let rename = UI.button(`_`("Rename"), classes: ["choice"]) { [weak self] in
            let text = UI.entryText(name).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text != schoolClass.name else { return }
            self?.run({ try await $0.renameClass(schoolClass.id, text) }) { [weak self] renamed in
                self?.note = String(format: `_`("The class is now called %@."), renamed.name)
                self?.selected = renamed
                self?.loadClasses()
                self?.show(renamed)
            }
        }
        Signal.connect(UI.raw(name), "activate") { gtk_widget_activate(rename) }
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [UI.label(`_`("Class"), classes: ["form-label"]), name, rename])

        if schoolClass.archived {
            let restore = UI.button(`_`("Restore class"), classes: ["choice", "suggested-action"]) { [weak self] in
                self?.setArchived(schoolClass, false)
            }
            let note = UI.label(`_`("Archived: its pupils cannot sign in. Their work is kept."), classes: ["hint"])
            UI.append(row, restore)
            UI.append(row, note)
        } else {
            let archive = UI.button(`_`("Archive class…"), classes: ["choice"]) { [weak self] in self?.confirmArchive(schoolClass) }
            UI.append(row, archive)
            // Typed once on a new laptop or kiosk, it shows the class's
            // names there; the server shows them nowhere else.
            if let code = schoolClass.code {
                let shown = UI.label(String(format: `_`("Class code: %@"), code), classes: ["class-code"])
                gtk_label_set_wrap(ts_label(shown), 0)
                gtk_label_set_selectable(ts_label(shown), 1)
                gtk_widget_set_tooltip_text(shown, `_`("Type it on a new computer so the class's pupils can sign in there."))
                UI.append(row, shown)
            }
        }
        return row
    }

    // MARK: archiving

    private func confirmArchive(_ schoolClass: SchoolOffice.SchoolClass) {
        guard let nav else { return }
        Alert.show(parent: nav.window, title: String(format: `_`("Archive class %@?"), schoolClass.name),
                   message: `_`("Its pupils can no longer sign in and it is no longer offered on the pupils' computers. Their work is kept, and you can restore the class under “Show archived classes”."),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Archive"), classes: ["destructive-action"]) { [weak self] in
                                 self?.archive(schoolClass)
                             }])
    }

    /// Archived at once on the server; Undo restores it as it was.
    private func archive(_ schoolClass: SchoolOffice.SchoolClass) {
        let id = schoolClass.id
        run({ try await $0.setArchived(id, true) }) { [weak self] archived in
            guard let self else { return }
            self.loadClasses()
            self.toast.offer(UndoToast.Entry(
                message: String(format: `_`("Class %@ archived"), archived.name),
                takeBack: { [weak self] in self?.setArchived(archived, false) }))
        }
    }

    /// Restores (or archives) a class and shows it.
    private func setArchived(_ schoolClass: SchoolOffice.SchoolClass, _ archived: Bool) {
        let id = schoolClass.id
        run({ try await $0.setArchived(id, archived) }) { [weak self] changed in
            guard let self else { return }
            self.selected = changed
            self.loadClasses()
            self.show(changed)
        }
    }

    private func row(_ pupil: SchoolOffice.Pupil) -> Widget {
        let pictures = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        let state = UI.label(pupil.hasPicturePassword ? `_`("has pictures") : `_`("no pictures yet"), classes: ["hint"])
        gtk_label_set_wrap(ts_label(state), 0)
        let give: @MainActor () -> Void = { [weak self] in
            var rng = SystemRandomNumberGenerator()
            let chosen = PicturePassword.random(using: &rng)
            self?.run({ try await $0.setPictures(chosen, pupil.id) }) { _ in
                UI.clear(pictures)
                UI.setText(state, `_`("new pictures:"))
                for i in chosen { UI.append(pictures, Self.picture(PicturePassword.pictures[i], size: 40)) }
            }
        }
        // The old pictures are known nowhere (the server keeps a hash), so
        // this cannot be undone: it only asks, and only when there are some.
        let again = UI.button(`_`("New pictures"), classes: ["choice"]) { [weak self] in
            guard pupil.hasPicturePassword, let nav = self?.nav else { return give() }
            Alert.show(parent: nav.window, title: String(format: `_`("New pictures for %@?"), pupil.name),
                       message: `_`("The old pictures stop working at once. This cannot be undone."),
                       choices: [.init(`_`("Cancel")), .init(`_`("New pictures"), classes: ["destructive-action"], action: give)])
        }
        let name = UI.label(pupil.name, classes: ["card-name"])
        gtk_widget_set_size_request(name, 200, -1)
        gtk_label_set_xalign(ts_label(name), 0)
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [Avatar.make(name: pupil.name, size: 36), name, state, pictures, again])
        UI.append(row, peopleButtons(pupil))
        let notes = Self.notes(pupil)
        guard !notes.isEmpty else { return row }
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [row])
        for note in notes {
            let label = UI.label(note, classes: ["pupil-note"])
            gtk_label_set_xalign(ts_label(label), 0)
            gtk_widget_set_margin_start(label, 48)
            UI.append(column, label)
        }
        return column
    }

    /// What the teacher should know of a pupil: work waiting on their
    /// laptop past a quota of the server, and wrong picture tries.
    static func notes(_ pupil: SchoolOffice.Pupil) -> [String] {
        var notes: [String] = []
        switch pupil.quotaReached {
        case nil: break
        case let quota? where quota.isDaily:
            notes.append(String(format: `_`("%@’s laptop has sent more than the school server takes in a day. The rest waits on it until tomorrow."), pupil.name))
        case .sketches?:
            notes.append(String(format: `_`("%@ has as many sketches as the school server keeps for one pupil. New ones wait on the laptop until you delete old ones."), pupil.name))
        case _?:
            notes.append(String(format: `_`("%@ has stored as much as the school server keeps for one pupil. New work waits on the laptop until the server’s administrator raises the limit."), pupil.name))
        }
        if pupil.failedSignInsToday > 0 {
            notes.append(String(format: _n("%d wrong picture try today", "%d wrong picture tries today", pupil.failedSignInsToday),
                                pupil.failedSignInsToday))
        }
        return notes
    }

    static func picture(_ picture: SessionSign.Picture, size: Int32) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_widget_set_size_request(area, size, size)
        UI.setDrawFunc(area) { cr, w, h in
            SessionSignRenderer.drawPicture(picture, in: cr, x: 1, y: 1, size: Double(min(w, h)) - 2)
        }
        UI.accessibleLabel(area, picture.localizedName)
        return area
    }

    // MARK: the class list

    private func importRoster(into schoolClass: SchoolOffice.SchoolClass) {
        guard let nav else { return }
        FileChooser.ask(parent: nav.window, title: `_`("Import a class list"), save: false, acceptLabel: `_`("Import"),
                        filters: [.init(name: `_`("Class list (.csv)"), patterns: ["*.csv"])]) { [weak self] path in
            guard let self else { return }
            let result: RosterCSV.Import
            do {
                result = try RosterCSV.importNames(contentsOf: path)
            } catch {
                return Alert.show(parent: nav.window, title: `_`("This file is not a class list."),
                                  message: RosterText.file(error))
            }
            let add: @MainActor () -> Void = { [weak self] in self?.add(result.names, to: schoolClass) }
            if result.errors.isEmpty { return add() }
            let lines = result.errors.prefix(8).map { String(format: `_`("Line %d: %@"), $0.line, RosterText.row($0.reason)) }
            let more = result.errors.count > 8 ? "\n" + String(format: `_`("…and %d more."), result.errors.count - 8) : ""
            var choices: [Alert.Choice] = [.init(`_`("Cancel"))]
            if !result.names.isEmpty {
                choices.append(.init(String(format: `_`("Add the other %d"), result.names.count), classes: ["suggested-action"],
                                     action: add))
            }
            Alert.show(parent: nav.window, title: `_`("Some rows could not be read"),
                       message: lines.joined(separator: "\n") + more, choices: choices)
        }
    }

    /// Adds the pupils not yet in the class (`RosterImport`), and says how
    /// many were added even when the server stops answering half-way.
    private func add(_ names: [String], to schoolClass: SchoolOffice.SchoolClass) {
        let id = schoolClass.id
        UI.setText(status, String(format: _n("Adding %d pupil…", "Adding %d pupils…", names.count), names.count))
        run({ try await $0.importRoster(names, into: id) }) { [weak self] outcome in
            self?.note = RosterText.added(outcome.added, of: outcome.wanted, already: outcome.already)
            FileHandle.standardError.write(Data("roster: added \(outcome.added) of \(outcome.wanted), already \(outcome.already.count)\n".utf8))
            self?.show(schoolClass, typingNames: true)
        }
    }

    // MARK: pictures for everyone

    /// Replaces every pupil's pictures, so it asks first; then the sheet is
    /// saved where the teacher says.
    private func newPicturesForEveryone(_ schoolClass: SchoolOffice.SchoolClass,
                                        pupils: [SchoolOffice.Pupil]) {
        guard let nav, !pupils.isEmpty else { return }
        Alert.show(parent: nav.window, title: `_`("New pictures for everyone?"),
                   message: String(format: `_`("Every pupil of %@ gets three new pictures; the old ones stop working. You save a sheet to print and cut out."), schoolClass.name),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("New pictures"), classes: ["destructive-action"]) { [weak self] in
                                 self?.saveSheet(schoolClass, pupils: pupils)
                             }])
    }

    /// The pictures are set one pupil at a time and the sheet shows exactly
    /// those that took: pictures nobody sees would lock a child out, since
    /// the server keeps only a hash of them.
    private func saveSheet(_ schoolClass: SchoolOffice.SchoolClass, pupils: [SchoolOffice.Pupil]) {
        guard let nav else { return }
        FileChooser.ask(parent: nav.window, title: `_`("Save the picture sheet"), save: true, acceptLabel: `_`("Save"),
                        suggestedName: schoolClass.name + ".pdf",
                        filters: [.init(name: `_`("PDF document"), patterns: ["*.pdf"])]) { [weak self] path in
            var rng = SystemRandomNumberGenerator()
            let wanted = pupils.map { ($0, PicturePassword.random(using: &rng)) }
            self?.run({ office in
                try await office.newPictures(wanted).map {
                    PictureSheet.Card(name: $0.pupil.name, pictures: $0.pictures.map { PicturePassword.pictures[$0] })
                }
            }) { [weak self] cards in
                if cards.count < wanted.count {
                    self?.note = String(format: _n("%d of %d pupil got new pictures; the school server stopped answering. The sheet shows theirs.", "%d of %d pupils got new pictures; the school server stopped answering. The sheet shows theirs.", wanted.count), cards.count, wanted.count)
                }
                self?.write(cards, title: schoolClass.name, to: path)
                self?.show(schoolClass)
            }
        }
    }

    /// Writes the sheet; when that fails the teacher is asked for another
    /// place, since the pictures on it exist nowhere else.
    private func write(_ cards: [PictureSheet.Card], title: String, to path: String) {
        guard let nav else { return }
        do {
            try FileBytes.write(try PictureSheet.pdf(title: title, cards: cards), to: path)
        } catch {
            Alert.show(parent: nav.window, title: `_`("The sheet could not be saved."),
                       message: String(describing: error) + "\n\n" + `_`("The new pictures are only on this sheet. Please save it somewhere else."),
                       choices: [.init(`_`("Save elsewhere"), classes: ["suggested-action"]) { [weak self, weak nav] in
                           FileChooser.ask(parent: nav?.window, title: `_`("Save the picture sheet"), save: true,
                                           acceptLabel: `_`("Save"), suggestedName: title + ".pdf",
                                           filters: [.init(name: `_`("PDF document"), patterns: ["*.pdf"])]) { path in
                               self?.write(cards, title: title, to: path)
                           }
                       }])
        }
    }
}

/// What the class list import says about a file or a row, in the
/// teacher's words.
enum RosterText {
    /// After an import: how many were added, and who was skipped because
    /// the class has them already (the first few by name), so a teacher
    /// never wonders where a name went.
    static func added(_ added: Int, of wanted: Int, already: [String]) -> String {
        var parts: [String] = []
        if added < wanted {
            parts.append(String(format: _n("%d of %d pupil was added; the school server stopped answering.",
                                           "%d of %d pupils were added; the school server stopped answering.", wanted), added, wanted))
        } else {
            parts.append(String(format: _n("%d pupil added.", "%d pupils added.", added), added))
        }
        if !already.isEmpty {
            let named = already.prefix(5).joined(separator: ", ") + (already.count > 5 ? ", …" : "")
            parts.append(String(format: _n("%d was in the class already: %@.", "%d were in the class already: %@.",
                                           already.count), already.count, named))
        }
        return parts.joined(separator: " ")
    }

    static func file(_ error: any Error) -> String {
        switch error as? RosterCSV.FileError {
        case .tooLarge(let limit)?: String(format: `_`("The file is bigger than %d KB."), limit / 1024)
        case .notUTF8?: `_`("The file is not UTF-8 text. Save it from the spreadsheet as CSV (UTF-8).")
        case .badHeader?: `_`("The first row must be the word: name")
        case nil: String(describing: error)
        }
    }

    static func row(_ reason: RosterCSV.RowError.Reason) -> String {
        switch reason {
        case .emptyName: `_`("no name")
        case .nameTooLong(let limit): String(format: `_`("the name is longer than %d characters"), limit)
        case .invisibleCharacters: `_`("the name has invisible characters")
        case .tooManyColumns: `_`("more than one column")
        case .duplicateName(let first): String(format: `_`("the same name as line %d"), first)
        case .unterminatedQuote: `_`("a quote is not closed")
        case .tooManyRows(let limit): String(format: `_`("more than %d pupils"), limit)
        }
    }
}
