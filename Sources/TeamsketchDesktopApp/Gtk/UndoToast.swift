import CGtk
import Foundation
import TeamsketchCore

/// The strip over the bottom of the teacher's window after a destructive
/// action: what was done and a big Undo, for a few seconds. When, whether
/// and what is committed or taken back is decided by `UndoWindow`; this only
/// shows it and passes on the clicks and the ticks of its timer.
@MainActor
final class UndoToast {
    /// One action offered for undoing. `commit` runs when Undo is no longer
    /// offered (time ran out, another action came, the window closed) and
    /// finishes an action held back until then; `takeBack` reverses it.
    struct Entry {
        var message: String
        var commit: @MainActor () -> Void = {}
        var takeBack: @MainActor () -> Void
    }

    let widget: Widget
    private let label: Widget
    private var window = UndoWindow<Entry>()
    /// How often the timer looks whether the time is up.
    private static let tickMilliseconds: UInt32 = 200

    init() {
        label = UI.label("", classes: ["card-name"])
        gtk_label_set_xalign(ts_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        widget = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18, classes: ["banner"])
        gtk_widget_set_margin_start(widget, 24)
        gtk_widget_set_margin_end(widget, 24)
        gtk_widget_set_margin_bottom(widget, 12)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        let undo = UI.button(`_`("Undo"), classes: ["choice"]) { [weak self] in self?.undo() }
        gtk_widget_set_size_request(undo, 160, 56)
        UI.append(widget, label)
        UI.append(widget, undo)
        gtk_widget_set_visible(widget, 0)
        // Leaving the teacher's window (Lock, quitting) ends the chance to
        // undo: what was held back is done then, not lost.
        Signal.connect(UI.raw(widget), "unrealize") { [weak self] in self?.finish() }
    }

    isolated deinit {
        if case .commit(let entry) = window.finish() { entry.commit() }
    }

    /// Shows `entry` with Undo; an action shown before stands from now on.
    func offer(_ entry: Entry) {
        apply(window.offer(entry, now: Date()))
        UI.setText(label, entry.message)
        gtk_widget_set_visible(widget, 1)
        guard let serial = window.pending?.serial else { return }
        runEvery(ms: Self.tickMilliseconds) { [weak self] in
            // A newer toast has its own timer.
            guard let self, self.window.pending?.serial == serial else { return false }
            self.apply(self.window.tick(now: Date()))
            return self.window.pending != nil
        }
    }

    /// Whatever is pending stands now.
    func finish() {
        apply(window.finish())
    }

    private func undo() {
        apply(window.undo(now: Date()))
    }

    private func apply(_ decision: UndoWindow<Entry>.Decision) {
        switch decision {
        case .none: return
        case .commit(let entry): entry.commit()
        case .takeBack(let entry): entry.takeBack()
        }
        if window.pending == nil { gtk_widget_set_visible(widget, 0) }
    }
}
