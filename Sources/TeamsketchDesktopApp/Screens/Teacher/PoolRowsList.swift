import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The rows of a word list as GTK 4 shows long lists: a GtkListView over a
/// model with one item per row, whose factory gives each visible row its
/// fields (number, word, hint, priority, remove) and points them at the
/// draft's row by the item's position. Only the rows on screen (and a few
/// around them) exist as widgets, so a 5,000-word list scrolls like a short
/// one. The draft stays with the owner: this list reads rows through `row`
/// and reports typing and removing; the owner splices the model to match
/// every change of the draft's rows (`reset`, `removed`, `inserted`).
@MainActor
final class PoolRowsList {
    enum Field { case word, hint, priority }

    let widget: Widget
    /// The draft's row at an index (nil past its end).
    var row: (Int) -> PoolDraft.Row? = { _ in nil }
    /// The teacher typed in a row's field.
    var changed: (Int, Field, String) -> Void = { _, _, _ in }
    /// The teacher pressed a row's remove button.
    var remove: (Int) -> Void = { _ in }

    private struct Cell {
        let number: Widget
        let word: Widget
        let hint: Widget
        let priority: Widget
    }

    private let model: OpaquePointer        // GtkStringList: one (empty) item per row
    private let view: Widget
    private var cells: [UnsafeMutableRawPointer: Cell] = [:]
    private var bound: Set<UnsafeMutableRawPointer> = []
    private var bad: [Int: CSVRowError.Reason] = [:]
    /// Set while a bind fills the fields, so that is not taken for typing.
    private var filling = false
    /// The row whose word gets the cursor once it is on screen.
    private var pendingFocus: Int?

    static let numberWidth: Int32 = 44
    static let widths: (word: Int32, hint: Int32, priority: Int32) = (200, 420, 80)

    init() {
        model = gtk_string_list_new(nil)
        let factory = gtk_signal_list_item_factory_new()!
        g_object_ref(gp(model))  // the selection model takes one reference
        let selection = gtk_no_selection_new(ts_list_model(gp(model)))!
        view = gtk_list_view_new(ts_selection_model(gp(selection)), ts_list_item_factory(gp(factory)))!
        UI.accessibleLabel(view, `_`("Words of the list"))
        widget = UI.scrolled(view)
        UI.expand(widget)
        // Five rows at least, however little room the window leaves.
        gtk_widget_set_size_request(widget, -1, 240)
        Signal.connectObject(UnsafeMutableRawPointer(factory), "setup") { [weak self] item in self?.setUp(item) }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "bind") { [weak self] item in
            self?.bound.insert(item)
            self?.fill(item)
        }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "unbind") { [weak self] item in self?.bound.remove(item) }
        Signal.connectObject(UnsafeMutableRawPointer(factory), "teardown") { [weak self] item in self?.cells[item] = nil }
        FrameTimeLog.attach(to: view, label: "word-list")
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(model))
    }

    // MARK: keeping the model in step with the draft

    /// A list shown afresh: `count` rows.
    func reset(count: Int) {
        splice(at: 0, removing: Int(g_list_model_get_n_items(ts_list_model(gp(model)))), adding: count)
    }

    func removed(at index: Int) {
        splice(at: index, removing: 1, adding: 0)
        renumber()
    }

    func inserted(at index: Int) {
        splice(at: index, removing: 0, adding: 1)
        renumber()
    }

    /// Marks the rows that are not words yet (the list's own check says
    /// which and why) on the rows shown now and on those bound later.
    func mark(_ bad: [Int: CSVRowError.Reason]) {
        guard bad != self.bad else { return }
        self.bad = bad
        for item in bound { decorate(item) }
    }

    /// Scrolls the row into view and puts the cursor in its word.
    func show(row index: Int) {
        guard index >= 0, index < Int(g_list_model_get_n_items(ts_list_model(gp(model)))) else { return }
        // The row may have no widgets yet: they get the cursor when bound.
        pendingFocus = index
        _ = gtk_widget_activate_action_variant(view, "list.scroll-to-item", g_variant_new_uint32(UInt32(index)))
        for item in bound where position(item) == index { focus(item) }
    }

    private func focus(_ item: UnsafeMutableRawPointer) {
        guard let want = pendingFocus, position(item) == want, let cell = cells[item] else { return }
        pendingFocus = nil
        // After the bind's own work: the list moves focus while it binds.
        runAfter(ms: 0) { gtk_widget_grab_focus(cell.word) }
    }

    private func splice(at index: Int, removing: Int, adding: Int) {
        let empty = strdup("")
        defer { free(empty) }
        let pointers = [UnsafePointer<CChar>?](repeating: UnsafePointer(empty), count: adding) + [nil]
        pointers.withUnsafeBufferPointer {
            gtk_string_list_splice(ts_string_list(gp(model)), UInt32(index), UInt32(removing), $0.baseAddress!)
        }
    }

    /// Rows after a removed or inserted one keep their widgets but not their
    /// number: say it again.
    private func renumber() {
        for item in bound { decorate(item) }
    }

    // MARK: the factory

    private func position(_ item: UnsafeMutableRawPointer) -> Int? {
        let p = gtk_list_item_get_position(ts_list_item(item))
        return p == UInt32.max ? nil : Int(p)
    }

    private func setUp(_ item: UnsafeMutableRawPointer) {
        // Only the fields take focus: Tab runs word → hint → priority →
        // remove and on into the next row, as in a form.
        gtk_list_item_set_activatable(ts_list_item(item), 0)
        let number = UI.label("", classes: ["hint"])
        gtk_label_set_xalign(ts_label(number), 1)
        gtk_widget_set_size_request(number, Self.numberWidth, -1)
        let word = field(item, .word, width: Self.widths.word)
        let hint = field(item, .hint, width: Self.widths.hint)
        let priority = field(item, .priority, width: Self.widths.priority)
        let remove = UI.iconButton("list-remove-symbolic", tooltip: `_`("Remove this word")) { [weak self] in
            guard let self, let at = self.position(item) else { return }
            self.remove(at)
        }
        let box = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [number, word, hint, priority, remove])
        gtk_widget_set_halign(box, GTK_ALIGN_START)
        gtk_widget_set_margin_top(box, 3)
        gtk_widget_set_margin_bottom(box, 3)
        gtk_list_item_set_child(ts_list_item(item), box)
        cells[item] = Cell(number: number, word: word, hint: hint, priority: priority)
    }

    private func field(_ item: UnsafeMutableRawPointer, _ which: Field, width: Int32) -> Widget {
        let entry = gtk_entry_new()!
        gtk_widget_set_size_request(entry, width, -1)
        Signal.connect(UI.raw(entry), "changed") { [weak self] in
            guard let self, !self.filling, let at = self.position(item) else { return }
            self.changed(at, which, UI.entryText(entry))
        }
        return entry
    }

    private func fill(_ item: UnsafeMutableRawPointer) {
        guard let cell = cells[item], let at = position(item), let row = row(at) else { return }
        filling = true
        for (entry, text) in [(cell.word, row.word), (cell.hint, row.hint), (cell.priority, row.priority)]
        where UI.entryText(entry) != text {
            gtk_editable_set_text(ts_editable(entry), text)
        }
        filling = false
        decorate(item)
        focus(item)
    }

    /// The row's number and names, and whether (and why) it is not a word.
    private func decorate(_ item: UnsafeMutableRawPointer) {
        guard let cell = cells[item], let at = position(item) else { return }
        let n = at + 1
        UI.setText(cell.number, String(n))
        UI.accessibleLabel(cell.word, String(format: `_`("Word %d"), n))
        UI.accessibleLabel(cell.hint, String(format: `_`("Hint %d"), n))
        UI.accessibleLabel(cell.priority, String(format: `_`("Priority %d"), n))
        let reason = bad[at].map { String(format: `_`("Row %d: %@"), n, WordListRowText.text(for: $0)) }
        for w in [cell.number, cell.word, cell.hint, cell.priority] {
            if reason != nil { gtk_widget_add_css_class(w, "error") } else { gtk_widget_remove_css_class(w, "error") }
        }
        gtk_widget_set_tooltip_text(cell.word, reason)
    }
}
