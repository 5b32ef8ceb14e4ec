import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Sketches deleted in the last days (here or on any laptop that synced),
/// each with a button that brings it back with every line; the store
/// decides what is listed (`SketchLibrary.deleted`) and sync takes
/// the restore to the school server and the pupils' laptops.
@MainActor
final class TeacherDeletedView {
    let widget: Widget
    private let library: SketchLibrary
    private weak var nav: (any Navigator)?
    private let rowsBox: Widget
    private let count: Widget
    /// Back to the sketches (set by the teacher's window).
    var onBack: (() -> Void)?

    init(library: SketchLibrary, nav: any Navigator) {
        self.library = library
        self.nav = nav
        rowsBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_halign(rowsBox, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(rowsBox, 720, -1)
        count = UI.label("", classes: ["hint"])
        gtk_label_set_wrap(ts_label(count), 1)
        gtk_label_set_max_width_chars(ts_label(count), 70)
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [header, count, rowsBox])
        gtk_widget_set_margin_start(page, 24)
        gtk_widget_set_margin_end(page, 24)
        gtk_widget_set_margin_bottom(page, 24)
        gtk_widget_set_margin_top(page, 12)
        widget = UI.scrolled(page)
        UI.expand(widget)
        let back = UI.button(`_`("Back to the sketches"), icon: "go-previous-symbolic", classes: ["choice"]) { [weak self] in
            self?.onBack?()
        }
        UI.append(header, back)
        paint()
    }

    /// A sync brought changes (a deletion elsewhere, a restore).
    func refresh() { paint() }

    private func paint() {
        UI.clear(rowsBox)
        let deleted: [DeletedSketch]
        do {
            deleted = try library.deleted(Date())
        } catch {
            nav?.showError(`_`("The deleted sketches could not be listed."), error)
            return
        }
        UI.setText(count, deleted.isEmpty
                   ? String(format: `_`("Nothing was deleted in the last %d days."), SketchDeletion.undoDays)
                   : String(format: `_`("Deleted in the last %d days. Restore brings a sketch back, with all its lines, on every computer."),
                            SketchDeletion.undoDays))
        let day = FormatLocale.dateFormatter(date: .medium, time: .short)
        for sketch in deleted { UI.append(rowsBox, row(sketch, day)) }
    }

    private func row(_ sketch: DeletedSketch, _ day: DateFormatter) -> Widget {
        let name = UI.label(sketch.name, classes: ["card-name"])
        let when = UI.label(String(format: `_`("Deleted %@"), day.string(from: sketch.deletedAt)), classes: ["hint"])
        for l in [name, when] {
            gtk_label_set_xalign(ts_label(l), 0)
            gtk_label_set_wrap(ts_label(l), 0)
            gtk_label_set_ellipsize(ts_label(l), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(ts_label(l), 60)
        }
        let texts = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [name, when])
        gtk_widget_set_hexpand(texts, 1)
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        let restore = UI.button(`_`("Restore"), icon: "edit-undo-symbolic", classes: ["choice"]) { [weak self] in
            self?.restore(sketch)
        }
        gtk_widget_set_size_request(restore, -1, 48)
        gtk_widget_set_valign(restore, GTK_ALIGN_CENTER)
        UI.accessibleLabel(restore, String(format: `_`("Restore %@"), sketch.name))
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["grade-row"], [texts, restore])
        return row
    }

    private func restore(_ sketch: DeletedSketch) {
        do {
            try library.bringBack(sketch.id)
        } catch {
            nav?.showError(`_`("The sketch could not be restored."), error)
        }
        paint()
    }
}
