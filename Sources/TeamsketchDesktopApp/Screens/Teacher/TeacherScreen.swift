import CGtk
import Foundation
import TeamsketchCore

/// The teacher's window: the sketches on this computer (to replay, look
/// into and grade) and the classroom settings the pupils' apps obey, for
/// this computer and, with a teacher signed in to the school server, for
/// each of their classes (sent to the pupils' devices by sync). "Lock"
/// leaves it; the PIN or the sign-in is asked again next time.
@MainActor
final class TeacherScreen {
    enum Section: String { case sketches, wordPost, classes, grades, deleted, settings }

    /// What the teacher's window asks of the app (`TeacherDoor` makes it).
    struct Desk {
        /// A section, built when first shown (the settings page is this
        /// screen's own); `toast` is the window's Undo.
        var makeSection: @MainActor (_ section: Section, _ toast: UndoToast) -> (AnyObject, Widget)?
        /// The signed-in teacher's calls to the server (`SchoolLink.office`).
        var office: @MainActor () -> SchoolOffice
        var classSettings: ClassSettingsBook
        let preferences: DevicePreferences
        var showClassWall: @MainActor () -> Void
        /// This computer's settings and kiosk switches, saved and followed
        /// at once.
        var setDeviceSettings: @MainActor (ClassroomSettings) -> Void
        var setKiosk: @MainActor (KioskConfigFile) -> Void
    }

    let widget: Widget
    private let sections: Widget
    private let scopes: Widget
    private let formHolder: Widget
    private let note: Widget
    private weak var nav: (any Navigator)?
    private let desk: Desk
    private var form: ClassroomSettingsForm?
    private var kioskForm: KioskSettingsForm?
    /// The classes the settings offer now (id and name), to tell a change.
    private var scopeClasses: [[String]] = []
    private var sectionButtons: [Section: Widget] = [:]
    /// The sections built so far; GTK holds their widgets, this their Swift side.
    private var loaded: [Section: AnyObject] = [:]
    /// Undo for the sections' destructive actions, at the window's bottom.
    private let toast = UndoToast()

    init(nav: any Navigator, desk: Desk, teacherName: String?, section: Section) {
        self.nav = nav
        self.desk = desk
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_widget_set_margin_top(widget, 12)
        scopes = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        note = UI.label("", classes: ["hint"])
        formHolder = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        let title = `_`("Teacher")
        let lock = UI.button(`_`("Lock"), icon: "system-lock-screen-symbolic", classes: ["choice", "header-action"]) {
            [weak nav] in nav?.lockTeacher()
        }
        // The wall opens a window of its own, for the projector: not a tab.
        let wall = UI.button(`_`("Class wall"), icon: "view-grid-symbolic", classes: ["choice", "header-action"]) {
            desk.showClassWall()
        }
        let tabs = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked"])
        sections = gtk_stack_new()!
        gtk_stack_set_transition_type(ts_stack(sections), GTK_STACK_TRANSITION_TYPE_NONE)
        UI.expand(sections)
        var first: Widget?
        for (s, name) in [(Section.sketches, `_`("Sketches")), (.wordPost, `_`("Buchstaben Post")),
                          (.classes, `_`("Classes")), (.grades, `_`("Grades")),
                          (.settings, `_`("Classroom settings"))] {
            let b = gtk_toggle_button_new_with_label(name)!
            UI.style(b, ["choice", "section-tab"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.show(s) }
            }
            sectionButtons[s] = b
            UI.append(tabs, b)
        }
        let heading = UI.label(title, classes: ["home-title"])
        gtk_label_set_wrap(ts_label(heading), 0)
        gtk_label_set_ellipsize(ts_label(heading), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(heading, 1)
        gtk_label_set_xalign(ts_label(heading), 0)
        let titles = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [heading])
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(titles, 1)
        if let teacherName {
            // Signed in to the school server: whose classes these are.
            let who = UI.label(teacherName, classes: ["hint"])
            gtk_label_set_xalign(ts_label(who), 0)
            UI.append(titles, who)
        }
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 16, [titles, tabs, wall, lock])
        gtk_widget_set_margin_start(header, 24)
        gtk_widget_set_margin_end(header, 24)
        UI.append(widget, header)
        // The toast lies over the section's bottom rather than below it, so
        // it never makes the window taller than a laptop's screen.
        let body = gtk_overlay_new()!
        gtk_overlay_set_child(ts_overlay(body), sections)
        gtk_overlay_add_overlay(ts_overlay(body), toast.widget)
        UI.expand(body)
        UI.append(widget, body)

        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        UI.center(page)
        gtk_widget_set_margin_bottom(page, 24)
        // A laptop's 768 rows do not hold every setting: the page scrolls.
        let settings = UI.scrolled(page)
        gtk_stack_add_named(ts_stack(sections), settings, Section.settings.rawValue)
        gtk_widget_set_halign(scopes, GTK_ALIGN_CENTER)
        UI.append(page, scopes)
        gtk_label_set_wrap(ts_label(note), 1)
        gtk_label_set_max_width_chars(ts_label(note), 60)
        UI.append(page, note)
        UI.append(page, formHolder)
        showScopes(classes: [])
        showDevice()
        refreshClasses()
        if let b = sectionButtons[section] { gtk_toggle_button_set_active(ts_toggle(b), 1) }
        show(section)
    }

    /// A section is built when first shown (the sketches, so, are read
    /// again after a review, when the window is made anew).
    func show(_ section: Section) {
        let shownBefore = loaded[section] != nil
        if loaded[section] == nil, let (owner, widget) = desk.makeSection(section, toast) {
            loaded[section] = owner
            gtk_stack_add_named(ts_stack(sections), widget, section.rawValue)
            // The deleted sketches are a page of the sketches' tab, not a
            // tab of their own: the header keeps its width on a small screen.
            (owner as? TeacherSketchesView)?.onShowDeleted = { [weak self] in self?.show(.deleted) }
            (owner as? TeacherDeletedView)?.onBack = { [weak self] in self?.show(.sketches) }
        }
        gtk_stack_set_visible_child_name(ts_stack(sections), section.rawValue)
        // A sketch restored (or deleted) since the tab was last shown.
        if section == .sketches { (loaded[.sketches] as? TeacherSketchesView)?.refresh() }
        if section == .deleted { (loaded[.deleted] as? TeacherDeletedView)?.refresh() }
        // What the server says of the pupils (a quota, wrong picture tries)
        // may have changed since.
        if section == .classes, shownBefore { (loaded[.classes] as? TeacherClassesView)?.refresh() }
        // A class made (or renamed) in the Classes tab since: its settings.
        if section == .settings { refreshClasses() }
    }

    /// The teacher's classes as the settings' choices, asked of the server
    /// again; the choices are made anew only when the classes changed, so
    /// the form being edited stays.
    private func refreshClasses() {
        // Without a teacher signed in, the office refuses (`NoTeacher`):
        // this computer's settings are the only ones.
        let office = desk.office()
        Task { @MainActor [weak self] in
            guard let classes = await (try? office.classes(false))?.filter({ !$0.archived }), let self else { return }
            let names = classes.map { [$0.id.text, $0.name] }
            guard names != self.scopeClasses else { return }
            self.scopeClasses = names
            FileHandle.standardError.write(Data("settings: classes offered: \(classes.count)\n".utf8))
            self.showScopes(classes: classes)
            self.showDevice()
        }
    }

    /// A sync brought changes: the sketches, if shown once, catch up.
    func pulled() {
        (loaded[.sketches] as? TeacherSketchesView)?.refresh()
        (loaded[.deleted] as? TeacherDeletedView)?.refresh()
    }

    /// "This computer", then the teacher's classes, one choice at a time.
    private func showScopes(classes: [SchoolOffice.SchoolClass]) {
        UI.clear(scopes)
        let device = gtk_toggle_button_new_with_label(`_`("This computer"))!
        UI.style(device, ["choice"])
        gtk_toggle_button_set_active(ts_toggle(device), 1)
        Signal.connect(UI.raw(device), "toggled") { [weak self] in
            if gtk_toggle_button_get_active(ts_toggle(device)) != 0 { self?.showDevice() }
        }
        UI.append(scopes, device)
        for schoolClass in classes {
            let b = gtk_toggle_button_new_with_label(schoolClass.name)!
            UI.style(b, ["choice"])
            gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(device))
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.showClass(schoolClass) }
            }
            UI.append(scopes, b)
        }
    }

    private func showDevice() {
        let preferences = desk.preferences
        let current = preferences.device.settings.map(ClassroomSettings.init(record:)) ?? preferences.classroom
        UI.setText(note, preferences.followsClass
            ? `_`("A pupil of a class is signed in here: the class's settings from the school server apply, not these.")
            : `_`("The pupils on this computer get these settings, also in a team sketch this computer hosts."))
        show(current) { [desk] settings in desk.setDeviceSettings(settings) }
        // The kiosk belongs to the machine, not to a class: only here.
        let kiosk = KioskSettingsForm(current: preferences.kiosk, file: preferences.kioskUser) { [desk] file in
            desk.setKiosk(file)
        }
        UI.append(formHolder, UI.label(`_`("This computer as a kiosk"), classes: ["form-label"]))
        UI.append(formHolder, kiosk.widget)
        kioskForm = kiosk
    }

    private func showClass(_ schoolClass: SchoolOffice.SchoolClass) {
        UI.setText(note, String(format: `_`("The pupils of %@ get these settings on their devices when they sync."), schoolClass.name))
        let book = desk.classSettings
        show(book.settings(of: schoolClass.id)) { [weak nav] settings in
            do {
                try book.set(settings, for: schoolClass.id, now: Date())
            } catch {
                nav?.showError(`_`("The settings could not be saved."), error)
            }
        }
    }

    private func show(_ settings: ClassroomSettings, onChange: @escaping (ClassroomSettings) -> Void) {
        UI.clear(formHolder)
        kioskForm = nil
        let form = ClassroomSettingsForm(settings: settings, onChange: onChange)
        self.form = form
        UI.append(formHolder, form.widget)
    }
}
