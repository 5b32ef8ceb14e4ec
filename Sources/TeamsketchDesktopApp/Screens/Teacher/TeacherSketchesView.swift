import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The teacher's gallery: every sketch on this computer (pupils' work
/// synced from the school server included) as thumbnails in a GtkGridView,
/// filtered by class (a signed-in teacher's), by pupil, by when and by team
/// or alone, newest first. Only the
/// visible cards exist (the grid recycles them), and the thumbnails are
/// drawn away from the main thread, so hundreds of sketches scroll smoothly.
@MainActor
final class TeacherSketchesView {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let library: SketchLibrary
    private let book: GradeBook
    private let teacherRoster: TeacherRoster
    /// This computer's own profile, whose picture shows on its sketches.
    private let own: Profile
    private let ids: OpaquePointer          // GtkStringList of the shown ids
    private let pupilMenu: Widget
    /// The teacher's classes, when signed in: "All classes" first.
    private let classMenu: Widget
    private var classes: [(id: SchoolClassID, name: String)] = []
    private var roster = GradedPupils()
    private let count: Widget
    private var items: [UUID: TeacherSketchItem] = [:]
    private var order: [UUID] = []
    private var shown: [UUID] = []
    private var filter = SketchListFilter()
    private var pupils: [String] = []
    private var textures: [UUID: OpaquePointer] = [:]
    /// Each sketch's modification time when its digest was read.
    private var digested: [UUID: Date] = [:]
    /// The cards the grid has bound, so a thumbnail that arrives later
    /// finds the card showing its sketch.
    private var cells: [UnsafeMutableRawPointer: (picture: Widget, name: Widget, faces: Widget, who: Widget)] = [:]
    private var bound: [UnsafeMutableRawPointer: UUID] = [:]
    private let loader = SketchDigestLoader()
    /// The pictures the authors drew, where this computer knows them.
    private let faces = AuthorPictureLoader()
    private var changingMenu = false
    /// Opens the list of deleted sketches (set by the teacher's window).
    var onShowDeleted: (() -> Void)?

    init(library: SketchLibrary, book: GradeBook, roster: TeacherRoster, own: Profile, nav: any Navigator) {
        self.nav = nav
        self.library = library
        self.book = book
        teacherRoster = roster
        self.own = own
        ids = gtk_string_list_new(nil)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        pupilMenu = gtk_drop_down_new_from_strings(nil)!
        classMenu = gtk_drop_down_new_from_strings(nil)!
        count = UI.label("", classes: ["hint"])
        UI.append(widget, filters())
        UI.append(widget, grid())
        UI.append(widget, footer())
        load()
        loadClasses()
    }

    isolated deinit {
        loader.cancel()
        for t in textures.values { g_object_unref(UnsafeMutableRawPointer(t)) }
        g_object_unref(UnsafeMutableRawPointer(ids))
    }

    // MARK: filters

    private func filters() -> Widget {
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        UI.accessibleLabel(pupilMenu, `_`("Pupil"))
        Signal.connectNotify(UI.raw(pupilMenu), property: "selected") { [weak self] in
            guard let self, !self.changingMenu else { return }
            let i = Int(gtk_drop_down_get_selected(ts_drop_down(self.pupilMenu)))
            self.filter.pupil = i > 0 && i <= self.pupils.count ? self.pupils[i - 1] : nil
            self.refilter()
        }
        UI.accessibleLabel(classMenu, `_`("Class"))
        gtk_widget_set_visible(classMenu, 0)
        Signal.connectNotify(UI.raw(classMenu), property: "selected") { [weak self] in
            guard let self, !self.changingMenu else { return }
            let i = Int(gtk_drop_down_get_selected(ts_drop_down(self.classMenu)))
            let chosen = i > 0 && i <= self.classes.count ? self.classes[i - 1].id : nil
            self.filter.classPupils = chosen.map { id in Set(self.roster.roster.filter { $0.classID == id }.map(\.name)) }
            self.refilter()
        }
        UI.append(row, classMenu)
        UI.append(row, pupilMenu)
        UI.append(row, choices([(SketchListFilter.Period.all, `_`("Any time")), (.today, `_`("Today")),
                                (.week, `_`("Last 7 days"))]) { [weak self] in self?.filter.period = $0 })
        UI.append(row, choices([(SketchListFilter.Kind.all, `_`("All sketches")), (.team, `_`("Team sketches")),
                                (.alone, `_`("Drawn alone"))]) { [weak self] in self?.filter.kind = $0 })
        UI.append(row, UI.button(`_`("Export grades (CSV)…"), classes: ["choice"]) { [weak self] in self?.exportGrades() })
        showPupils()
        return row
    }

    /// How many are shown, and the bin (a picture, not a word) at the
    /// right: the filters' row has no room left on a laptop's width.
    private func footer() -> Widget {
        let bin = UI.iconButton("user-trash-symbolic", tooltip: `_`("Deleted sketches"), classes: ["tool"]) { [weak self] in
            self?.onShowDeleted?()
        }
        gtk_widget_set_valign(bin, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(count, 1)
        let spacer = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        gtk_widget_set_size_request(spacer, 52, -1)
        return UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [spacer, count, bin])
    }

    private func choices<T>(_ options: [(T, String)], set: @escaping (T) -> Void) -> Widget {
        let box = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked"])
        var first: Widget?
        for (value, title) in options {
            let b = gtk_toggle_button_new_with_label(title)!
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else {
                first = b
                gtk_toggle_button_set_active(ts_toggle(b), 1)
            }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                guard gtk_toggle_button_get_active(ts_toggle(b)) != 0 else { return }
                set(value)
                self?.refilter()
            }
            UI.append(box, b)
        }
        return box
    }

    /// A signed-in teacher's classes, from the roster grading uses (none
    /// without a teacher signed in); the menu shows once there are some.
    private func loadClasses() {
        let roster = teacherRoster
        Task { @MainActor [weak self] in
            let pupils = await roster.pupils()
            guard let self else { return }
            self.roster = pupils
            self.classes = TeacherRoster.classes(pupils)
            guard !self.classes.isEmpty else { return }
            let list = gtk_string_list_new(nil)!
            for n in [`_`("All classes")] + self.classes.map(\.name) { gtk_string_list_append(list, n) }
            self.changingMenu = true
            gtk_drop_down_set_model(ts_drop_down(self.classMenu), ts_list_model(gp(list)))
            g_object_unref(UnsafeMutableRawPointer(list))
            gtk_drop_down_set_selected(ts_drop_down(self.classMenu), 0)
            self.changingMenu = false
            gtk_widget_set_visible(self.classMenu, 1)
        }
    }

    private func showPupils() {
        let names = [`_`("All pupils")] + pupils
        let list = gtk_string_list_new(nil)!
        for n in names { gtk_string_list_append(list, n) }
        changingMenu = true
        gtk_drop_down_set_model(ts_drop_down(pupilMenu), ts_list_model(gp(list)))
        g_object_unref(UnsafeMutableRawPointer(list))
        let selected = filter.pupil.flatMap { pupils.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        gtk_drop_down_set_selected(ts_drop_down(pupilMenu), UInt32(selected))
        changingMenu = false
    }

    // MARK: the grid

    private func grid() -> Widget {
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(UnsafeMutableRawPointer(factory), "setup") { [weak self] item in self?.setUp(item) }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "bind") { [weak self] item in self?.bind(item) }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "unbind") { [weak self] item in
            self?.bound[item] = nil
        }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "teardown") { [weak self] item in
            self?.cells[item] = nil
        }
        g_object_ref(gp(ids))  // the selection model takes one reference
        let selection = gtk_no_selection_new(ts_list_model(gp(ids)))!
        let view = gtk_grid_view_new(ts_selection_model(gp(selection)), ts_list_item_factory(gp(factory)))!
        gtk_grid_view_set_max_columns(ts_grid_view(view), 6)
        gtk_grid_view_set_min_columns(ts_grid_view(view), 2)
        gtk_grid_view_set_single_click_activate(ts_grid_view(view), 1)
        UI.accessibleLabel(view, `_`("Sketches"))
        Signal.connectIndex(UI.raw(view), "activate") { [weak self] index in
            guard let self, index < self.shown.count else { return }
            self.nav?.showSketchReview(self.shown[index], from: .sketches)
        }
        let scroller = UI.scrolled(view)
        FrameTimeLog.attach(to: view, label: "sketches")
        UI.expand(scroller)
        gtk_widget_set_size_request(scroller, 900, 460)
        return scroller
    }

    private func setUp(_ item: UnsafeMutableRawPointer) {
        let picture = gtk_picture_new()!
        gtk_widget_set_size_request(picture, 240, 150)
        let name = UI.label("", classes: ["card-name"])
        gtk_label_set_wrap(ts_label(name), 0)
        gtk_label_set_ellipsize(ts_label(name), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(ts_label(name), 22)
        let who = UI.label("", classes: ["hint"])
        gtk_label_set_wrap(ts_label(who), 0)
        gtk_label_set_ellipsize(ts_label(who), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(ts_label(who), 26)
        // The authors' drawn pictures above who drew it, so the names keep
        // the card's width: a teacher finds a child's work by their face as
        // quickly as by their name.
        let faces = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        gtk_widget_set_halign(faces, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(faces, -1, 28)
        let card = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, classes: ["card"], [picture, name, faces, who])
        gtk_list_item_set_child(ts_list_item(item), card)
        cells[item] = (picture, name, faces, who)
    }

    private func bind(_ item: UnsafeMutableRawPointer) {
        guard let cell = cells[item], let object = gtk_list_item_get_item(ts_list_item(item)),
              let text = gtk_string_object_get_string(ts_string_object(UnsafeMutableRawPointer(object))),
              let id = UUID(uuidString: String(cString: text)), let sketch = items[id] else { return }
        bound[item] = id
        UI.setText(cell.name, sketch.name)
        let authors = sketch.authors.map { $0.sorted() }
        UI.setText(cell.who, authors?.joined(separator: ", ") ?? "…")
        UI.clear(cell.faces)
        // At most four faces keep the card's width; the names say the rest.
        for author in (authors ?? []).lazy.filter({ self.faces.picture(for: $0) != nil }).prefix(4) {
            UI.append(cell.faces, Avatar.make(name: author, picture: faces.picture(for: author), size: 28))
        }
        UI.accessibleLabel(cell.picture, sketch.name)
        gtk_picture_set_paintable(ts_picture(cell.picture), textures[id])
    }

    // MARK: loading

    /// Reads the list again after a sync brought something: sketches that
    /// are new or changed since their digest (a pupil's sketch arrives in
    /// pieces: its name first, its lines in later pages) and those whose
    /// digest has not come yet are read (again); the rest keep theirs.
    func refresh() { load() }

    private func load() {
        let summaries: [SketchSummary]
        do {
            summaries = try library.list()
        } catch {
            nav?.showError(`_`("The sketches could not be listed."), error)
            return
        }
        faces.load(from: library, own: own) { [weak self] in
            guard let self else { return }
            for item in self.bound.keys { self.bind(item) }
        }
        var listed: [UUID: TeacherSketchItem] = [:]
        for s in summaries {
            var item = items[s.id] ?? TeacherSketchItem(id: s.id, name: s.name, modifiedAt: s.modifiedAt)
            item.name = s.name
            item.modifiedAt = s.modifiedAt
            listed[s.id] = item
        }
        for (id, texture) in textures where listed[id] == nil {
            g_object_unref(UnsafeMutableRawPointer(texture))
            textures[id] = nil
        }
        items = listed
        order = summaries.map(\.id)
        digested = digested.filter { listed[$0.key] != nil }
        refilter()
        let due = summaries.filter { digested[$0.id] != $0.modifiedAt }
        guard !due.isEmpty else { return }
        let stamps = Dictionary(due.map { ($0.id, $0.modifiedAt) }, uniquingKeysWith: { a, _ in a })
        var arrived = 0
        loader.load(due, from: library) { [weak self] digest in
            guard let self else { return }
            self.items[digest.id]?.authors = digest.authors
            self.digested[digest.id] = stamps[digest.id]
            if let texture = digest.texture?.take() {
                if let old = self.textures.updateValue(texture, forKey: digest.id) { g_object_unref(UnsafeMutableRawPointer(old)) }
            }
            for (item, id) in self.bound where id == digest.id { self.bind(item) }
            arrived += 1
            // The pupil menu and an author-based filter catch up now and then,
            // not on every card.
            if arrived % 25 == 0 || arrived == due.count { self.learntAuthors() }
        }
    }

    private func learntAuthors() {
        let known = SketchListFilter.pupils(in: Array(items.values))
        if known != pupils {
            pupils = known
            showPupils()
        }
        if filter.pupil != nil || filter.kind != .all || filter.classPupils != nil { refilter() }
    }

    private func refilter() {
        let all = order.compactMap { items[$0] }
        let now = filter.apply(all, now: Date()).map(\.id)
        UI.setText(count, all.isEmpty ? `_`("No sketches on this computer yet.")
                   : String(format: _n("%d of %d sketch", "%d of %d sketches", all.count), now.count, all.count))
        guard now != shown else { return }
        shown = now
        let strings = now.map { $0.uuidString }
        withCStrings(strings) { pointers in
            gtk_string_list_splice(ids, 0, g_list_model_get_n_items(ts_list_model(gp(ids))), pointers)
        }
    }

    private func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Void) {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    // MARK: export

    private func exportGrades() {
        FileChooser.ask(parent: nav?.window, title: `_`("Export grades"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: "grades.csv",
                        filters: [.init(name: `_`("Spreadsheet (.csv)"), patterns: ["*.csv"])]) { [weak self] path in
            guard let self else { return }
            let (ids, roster, book, nav) = (self.shown, self.teacherRoster, self.book, self.nav)
            // Every listed sketch is read and measured: away from the main thread.
            Task { @MainActor in
                let pupils = await roster.pupils(waitingAtMost: 5)
                let titles = SpreadsheetTitles.sketches
                let written = await Task.detached { () -> Result<Void, any Error> in
                    let csv = book.sketchSheet(ids, pupils: pupils, dialect: SpreadsheetTitles.dialect, titles: titles)
                    return Result { try Data(csv.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) }
                }.value
                if case .failure(let error) = written { nav?.showError(`_`("The grades could not be exported."), error) }
            }
        }
    }
}
