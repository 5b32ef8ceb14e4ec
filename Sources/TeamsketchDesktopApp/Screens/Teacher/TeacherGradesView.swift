import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Every grade and comment the teacher gave: teams' and pupils' grades of
/// sketches and pupils' grades of their Buchstaben Post results, newest
/// work first, filtered by pupil and (signed in to the school server) by
/// class. A sketch's grade opens its review. The decisions are
/// `GradeList`'s; this reads the store and paints the rows.
@MainActor
final class TeacherGradesView {
    let widget: Widget
    private let book: GradeBook
    private weak var nav: (any Navigator)?
    private let pupilMenu: Widget
    private let classMenu: Widget
    private let rowsBox: Widget
    private let count: Widget
    private var list = GradeList(records: [:], sketches: [:], lastPlayed: [:], pupils: GradedPupils())
    private var filter = GradeList.Filter()
    private var pupilNames: [String] = []
    private var classes: [(id: SchoolClassID, name: String)] = []
    private var changingMenus = false
    private var pupils = GradedPupils()
    private var authors: [UUID: [String]] = [:]

    init(book: GradeBook, roster: TeacherRoster, nav: any Navigator) {
        self.book = book
        self.nav = nav
        pupilMenu = gtk_drop_down_new_from_strings(nil)!
        classMenu = gtk_drop_down_new_from_strings(nil)!
        rowsBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        // One column of rows, as wide as a page, in the middle.
        gtk_widget_set_halign(rowsBox, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(rowsBox, 720, -1)
        count = UI.label("", classes: ["hint"])
        UI.accessibleLabel(pupilMenu, `_`("Pupil"))
        UI.accessibleLabel(classMenu, `_`("Class"))
        gtk_widget_set_visible(classMenu, 0)
        let filters = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [pupilMenu, classMenu, count])
        gtk_widget_set_halign(filters, GTK_ALIGN_CENTER)
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [filters, rowsBox])
        gtk_widget_set_margin_start(page, 24)
        gtk_widget_set_margin_end(page, 24)
        gtk_widget_set_margin_bottom(page, 24)
        gtk_widget_set_margin_top(page, 12)
        widget = UI.scrolled(page)
        UI.expand(widget)
        Signal.connectNotify(UI.raw(pupilMenu), property: "selected") { [weak self] in
            guard let self, !self.changingMenus else { return }
            let i = Int(gtk_drop_down_get_selected(ts_drop_down(self.pupilMenu)))
            self.filter.pupil = i > 0 && i <= self.pupilNames.count ? self.pupilNames[i - 1] : nil
            self.paint()
        }
        Signal.connectNotify(UI.raw(classMenu), property: "selected") { [weak self] in
            guard let self, !self.changingMenus else { return }
            let i = Int(gtk_drop_down_get_selected(ts_drop_down(self.classMenu)))
            self.filter.classID = i > 0 && i <= self.classes.count ? self.classes[i - 1].id : nil
            self.paint()
        }
        load()
        Task { @MainActor [weak self] in
            let pupils = await roster.pupils()
            guard let self, !pupils.roster.isEmpty else { return }
            self.pupils = pupils
            self.classes = TeacherRoster.classes(pupils)
            self.load()
        }
    }

    // MARK: reading

    private func load() {
        let book = book
        do {
            list = try book.list(pupils: pupils, authors: authors)
        } catch {
            nav?.showError(`_`("The grades could not be read."), error)
            return
        }
        showMenus()
        paint()
        // Who drew in the team-graded sketches (for the pupil and class
        // filters): read away from the main thread, then the list again.
        let missing = Set(list.rows.filter { $0.kind == .team }.compactMap(\.sketchID).filter { authors[$0] == nil })
        guard !missing.isEmpty else { return }
        Task { @MainActor [weak self] in
            let found = await Task.detached { book.authors(of: missing) }.value
            guard let self, !found.isEmpty else { return }
            self.authors.merge(found) { $1 }
            self.load()
        }
    }

    // MARK: painting

    private func showMenus() {
        changingMenus = true
        defer { changingMenus = false }
        pupilNames = list.pupilNames
        setStrings(pupilMenu, [`_`("All pupils")] + pupilNames)
        let p = filter.pupil.flatMap { pupilNames.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        if p == 0 { filter.pupil = nil }
        gtk_drop_down_set_selected(ts_drop_down(pupilMenu), UInt32(p))
        gtk_widget_set_visible(classMenu, classes.isEmpty ? 0 : 1)
        setStrings(classMenu, [`_`("All classes")] + classes.map(\.name))
        let c = filter.classID.flatMap { id in classes.firstIndex { $0.id == id } }.map { $0 + 1 } ?? 0
        if c == 0 { filter.classID = nil }
        gtk_drop_down_set_selected(ts_drop_down(classMenu), UInt32(c))
    }

    private func setStrings(_ menu: Widget, _ names: [String]) {
        let strings = gtk_string_list_new(nil)!
        for n in names { gtk_string_list_append(strings, n) }
        gtk_drop_down_set_model(ts_drop_down(menu), ts_list_model(gp(strings)))
        g_object_unref(UnsafeMutableRawPointer(strings))
    }

    private func paint() {
        UI.clear(rowsBox)
        let shown = list.filtered(filter)
        UI.setText(count, list.rows.isEmpty ? `_`("No grades yet. Grade a sketch in its review or a pupil's Buchstaben Post results.")
                   : String(format: _n("%d of %d grade", "%d of %d grades", list.rows.count), shown.count, list.rows.count))
        let day = FormatLocale.dateFormatter(date: .medium, time: .short)
        for row in shown { UI.append(rowsBox, self.row(row, day)) }
    }

    private func row(_ row: GradeList.Row, _ day: DateFormatter) -> Widget {
        let grade = UI.label(row.grade.map(String.init) ?? "–", classes: ["grade-badge"])
        gtk_widget_set_size_request(grade, 48, 48)
        gtk_widget_set_valign(grade, GTK_ALIGN_CENTER)
        let whose = switch row.kind {
        case .team: `_`("Team")
        case .pupil, .game: row.pupil
        }
        let work = row.workName ?? `_`("A sketch not on this computer")
        let title = UI.label(whose + " · " + work, classes: ["card-name"])
        let when = UI.label(day.string(from: row.workDate), classes: ["hint"])
        let comment = UI.label(row.comment, classes: ["table-cell"])
        for l in [title, when, comment] {
            gtk_label_set_xalign(ts_label(l), 0)
            gtk_label_set_wrap(ts_label(l), 0)
            gtk_label_set_ellipsize(ts_label(l), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(ts_label(l), 70)
        }
        let texts = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [title, when])
        if !row.comment.isEmpty { UI.append(texts, comment) }
        gtk_widget_set_hexpand(texts, 1)
        let content = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [grade, texts])
        guard let sketch = row.sketchID else {
            UI.style(content, ["grade-row"])
            return content
        }
        let button = gtk_button_new()!
        gtk_button_set_child(ts_button(button), content)
        UI.style(button, ["flat", "grade-row"])
        UI.accessibleLabel(button, String(format: `_`("Open the review of %@"), work))
        Signal.connect(UI.raw(button), "clicked") { [weak self] in self?.nav?.showSketchReview(sketch, from: .grades) }
        return button
    }
}
