import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Teacher accounts, under the classes: every teacher changes their own
/// password; the school's admin (its first teacher account) also sees every
/// teacher, makes accounts for new colleagues and gives one who forgot their
/// password a new one. The server says who the admin is: the list is asked
/// for, and only an answer shows it.
@MainActor
final class TeacherAccountsView {
    let widget: Widget
    /// The signed-in teacher's calls, taken anew for each operation.
    private let office: @MainActor () -> SchoolOffice
    private weak var nav: (any Navigator)?
    private let teacherList: Widget
    private let status: Widget
    /// How many teachers the school has, as last listed.
    private var teacherCount = 0
    /// Counts the lists made, so an answer for a list made over since is
    /// not added to the new one.
    private var listing = 0

    init(office: @escaping @MainActor () -> SchoolOffice, nav: any Navigator) {
        self.office = office
        self.nav = nav
        teacherList = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        status = UI.label("", classes: ["hint"])
        gtk_label_set_xalign(ts_label(status), 0)
        gtk_label_set_wrap(ts_label(status), 0)
        let heading = UI.label(`_`("Teacher accounts"), classes: ["form-label"])
        gtk_label_set_xalign(ts_label(heading), 0)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10, [heading])
        gtk_widget_set_margin_top(widget, 24)
        let ownPassword = UI.button(`_`("Change my password…"), classes: ["choice"]) { [weak self] in self?.askOwnPassword() }
        // What happened is said beside the button, where the eye is after
        // a dialog, not under a list that may reach below the window.
        UI.append(widget, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 16, [ownPassword, status]))
        UI.append(widget, teacherList)
        loadTeachers()
    }

    private func run<T: Sendable>(_ call: @escaping @Sendable (SchoolOffice) async throws -> T,
                                  then: @escaping @MainActor (T) -> Void,
                                  refused: @escaping @MainActor (SchoolOffice.Refusal?) -> String? = { _ in nil }) {
        let office = office()
        Task { @MainActor [weak self] in
            do {
                then(try await call(office))
            } catch is SchoolOffice.NoTeacher {
                return
            } catch {
                self.map { UI.setText($0.status, refused(error as? SchoolOffice.Refusal)
                    ?? `_`("The school server did not do that. Please try again.")) }
            }
        }
    }

    /// Anyone but the admin is refused the list and sees only their own
    /// password's button.
    private func loadTeachers() {
        let office = office()
        Task { @MainActor [weak self] in
            guard let teachers = try? await office.teachers(), let self else { return }
            self.show(teachers)
        }
    }

    private func show(_ teachers: [SchoolOffice.Teacher]) {
        teacherCount = teachers.count
        listing += 1
        UI.clear(teacherList)
        for teacher in teachers {
            let name = UI.label(teacher.isAdmin ? String(format: `_`("%@ (admin)"), teacher.name) : teacher.name, classes: ["card-name"])
            gtk_widget_set_size_request(name, 240, -1)
            gtk_label_set_xalign(ts_label(name), 0)
            let count = UI.label(String(format: _n("%d class", "%d classes", teacher.classCount), teacher.classCount), classes: ["hint"])
            gtk_label_set_wrap(ts_label(count), 0)
            gtk_widget_set_size_request(count, 100, -1)
            gtk_label_set_xalign(ts_label(count), 0)
            let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [Avatar.make(name: teacher.name, size: 36), name, count])
            if !teacher.isAdmin {
                let reset = UI.button(`_`("New password…"), classes: ["choice"]) { [weak self] in self?.askReset(teacher) }
                UI.accessibleLabel(reset, String(format: `_`("New password for %@"), teacher.name))
                UI.append(row, reset)
            }
            UI.append(teacherList, row)
        }
        let name = gtk_entry_new()!
        gtk_entry_set_placeholder_text(ts_entry(name), `_`("New teacher"))
        UI.accessibleLabel(name, `_`("Name of the new teacher"))
        let password = gtk_entry_new()!
        gtk_entry_set_placeholder_text(ts_entry(password), `_`("First password"))
        UI.accessibleLabel(password, `_`("First password of the new teacher"))
        // The fields may be gone when the server answers (the list made
        // anew, the window closed): they are held weakly.
        let fields = [WeakWidget(name), WeakWidget(password)]
        let add = UI.button(`_`("Add teacher"), classes: ["choice"]) { [weak self] in
            self?.addTeacher(name: UI.entryText(name).trimmingCharacters(in: .whitespaces), password: UI.entryText(password)) {
                for field in fields { if let w = field.widget { gtk_editable_set_text(ts_editable(w), "") } }
            }
        }
        Signal.connect(UI.raw(password), "activate") { gtk_widget_activate(add) }
        UI.append(teacherList, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [name, password, add]))
        let hint = UI.label(`_`("Tell the new teacher their first password; they change it under “Change my password”."),
                            classes: ["hint"])
        gtk_label_set_xalign(ts_label(hint), 0)
        UI.append(teacherList, hint)
        loadRetention()
    }

    // MARK: the end of a school year

    /// The admin's choice of how long archived classes are kept, shown
    /// once the server has said what it is now.
    private func loadRetention() {
        let list = listing
        run({ try await $0.archiveRetention() }, then: { [weak self] days in
            guard let self, self.listing == list else { return }
            self.showRetention(ArchiveRetention(days: days))
        })
    }

    private func showRetention(_ current: ArchiveRetention) {
        let heading = UI.label(`_`("Archived classes"), classes: ["form-label"])
        gtk_label_set_xalign(ts_label(heading), 0)
        gtk_widget_set_margin_top(heading, 16)
        UI.append(teacherList, heading)
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        var first: Widget?
        let choices = ArchiveRetention.choices.contains(current) ? ArchiveRetention.choices : ArchiveRetention.choices + [current]
        for choice in choices {
            let b = gtk_toggle_button_new_with_label(Self.text(choice))!
            UI.style(b, ["choice"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            if choice == current { gtk_toggle_button_set_active(ts_toggle(b), 1) }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.askRetention(choice) }
            }
            UI.append(row, b)
        }
        UI.append(teacherList, row)
        let hint = UI.label(`_`("When the time is up, the server erases the class with everything of its pupils. Until then it can be restored."),
                            classes: ["hint"])
        gtk_label_set_xalign(ts_label(hint), 0)
        gtk_label_set_wrap(ts_label(hint), 1)
        UI.append(teacherList, hint)
    }

    /// A period applies to classes archived long ago too, and what it
    /// erases cannot come back: the admin is asked first. Kept needs no
    /// question. Cancel, or closing the question, shows what the server has
    /// again.
    private func askRetention(_ choice: ArchiveRetention) {
        guard choice != .kept else { return setRetention(choice) }
        Alert.show(parent: nav?.window, title: String(format: `_`("Erase archived classes: %@?"), Self.text(choice)),
                   message: `_`("Classes archived longer ago than that are erased within the hour, with everything of their pupils. This cannot be undone."),
                   choices: [.init(`_`("Cancel")) { [weak self] in self?.loadTeachers() },
                             .init(`_`("Erase when the time is up"), classes: ["destructive-action"]) { [weak self] in
                                 self?.setRetention(choice)
                             }],
                   dismissed: { [weak self] in self?.loadTeachers() })
    }

    private func setRetention(_ choice: ArchiveRetention) {
        let days = choice.days
        run({ try await $0.setArchiveRetention(days) }, then: { [weak self] _ in
            FileHandle.standardError.write(Data("accounts: archived classes \(days.map { "erased after \($0) days" } ?? "kept")\n".utf8))
            self?.say(Self.confirmation(choice))
        })
    }

    static func confirmation(_ retention: ArchiveRetention) -> String {
        switch retention {
        case .kept: `_`("Archived classes are kept until you remove their pupils.")
        case .years(let years):
            String(format: _n("Archived classes are erased %d year after they were archived.",
                              "Archived classes are erased %d years after they were archived.", years), years)
        case .days(let days):
            String(format: _n("Archived classes are erased %d day after they were archived.",
                              "Archived classes are erased %d days after they were archived.", days), days)
        }
    }

    static func text(_ retention: ArchiveRetention) -> String {
        switch retention {
        case .kept: `_`("Kept")
        case .years(let years): String(format: _n("After %d year", "After %d years", years), years)
        case .days(let days): String(format: _n("After %d day", "After %d days", days), days)
        }
    }

    private func addTeacher(name: String, password: String, done: @escaping @MainActor () -> Void) {
        guard !name.isEmpty else { return }
        if let problem = NewTeacherPassword.problem(password) { return say(Self.text(problem)) }
        run({ try await $0.createTeacher(name, password) }, then: { [weak self] _ in
            FileHandle.standardError.write(Data("accounts: a teacher was added\n".utf8))
            done()
            self?.say(String(format: `_`("%@ can sign in now."), name))
            self?.loadTeachers()
        }, refused: { [weak self] in
            guard $0 == .conflict else { return nil }
            // The same answer for a name taken and a school that has as many
            // teachers as it may: the list says which.
            return (self?.teacherCount ?? 0) >= SchoolAccountLimits.maxTeachers
                ? String(format: `_`("The school has %d teachers, as many as it may have."), SchoolAccountLimits.maxTeachers)
                : String(format: `_`("There is already a teacher called %@."), name)
        })
    }

    /// The admin types a password to hand over; it is shown, not hidden.
    private func askReset(_ teacher: SchoolOffice.Teacher) {
        let entry = gtk_entry_new()!
        UI.accessibleLabel(entry, String(format: `_`("New password for %@"), teacher.name))
        let typed = Kept("")
        Signal.connect(UI.raw(entry), "changed") { typed.value = UI.entryText(entry) }
        Alert.show(parent: nav?.window, title: String(format: `_`("New password for %@"), teacher.name),
                   message: `_`("Their old password stops working at once, and they are signed out everywhere."),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Set password"), classes: ["suggested-action"]) { [weak self] in
                                 self?.reset(teacher, to: typed.value)
                             }],
                   extra: entry, focus: entry, enterTakes: 1)
    }

    private func reset(_ teacher: SchoolOffice.Teacher, to password: String) {
        if let problem = NewTeacherPassword.problem(password) { return say(Self.text(problem)) }
        let id = teacher.id
        run({ try await $0.resetPassword(id, password) }) { [weak self] _ in
            FileHandle.standardError.write(Data("accounts: a teacher's password was reset\n".utf8))
            self?.say(String(format: `_`("%@ has a new password."), teacher.name))
        }
    }

    private func askOwnPassword() {
        let fields = [`_`("Current password"), `_`("New password"), `_`("New password again")].map { label in
            let entry = gtk_entry_new()!
            gtk_entry_set_visibility(ts_entry(entry), 0)
            gtk_entry_set_placeholder_text(ts_entry(entry), label)
            UI.accessibleLabel(entry, label)
            return entry
        }
        let typed = Kept(["", "", ""])
        for (i, entry) in fields.enumerated() {
            Signal.connect(UI.raw(entry), "changed") { typed.value[i] = UI.entryText(entry) }
        }
        Alert.show(parent: nav?.window, title: `_`("Change my password"),
                   message: `_`("Your other sign-ins end; this computer stays signed in."),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Change password"), classes: ["suggested-action"]) { [weak self] in
                                 self?.changeOwn(current: typed.value[0], new: typed.value[1], again: typed.value[2])
                             }],
                   extra: UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, fields), focus: fields[0], enterTakes: 1,
                   enterFrom: fields[2])
        Signal.connect(UI.raw(fields[0]), "activate") { gtk_widget_grab_focus(fields[1]) }
        Signal.connect(UI.raw(fields[1]), "activate") { gtk_widget_grab_focus(fields[2]) }
    }

    private func changeOwn(current: String, new: String, again: String) {
        if let problem = NewTeacherPassword.problem(new, repeated: again) { return say(Self.text(problem)) }
        run({ try await $0.changeOwnPassword(current, new) }, then: { [weak self] _ in
            FileHandle.standardError.write(Data("accounts: own password changed\n".utf8))
            self?.say(`_`("Your password is changed."))
        }, refused: {
            switch $0 {
            case .forbidden?: `_`("That is not your current password.")
            case .tooManyTries?: `_`("Too many wrong tries. Please wait a little.")
            default: nil
            }
        })
    }

    private func say(_ text: String) { UI.setText(status, text) }

    static func text(_ problem: NewTeacherPassword) -> String {
        switch problem {
        case .tooShort: String(format: `_`("A password needs at least %d characters."), NewTeacherPassword.minCharacters)
        case .tooLong: String(format: `_`("A password may have at most %d characters."), NewTeacherPassword.maxCharacters)
        case .notTheSame: `_`("The two new passwords are not the same.")
        }
    }
}
