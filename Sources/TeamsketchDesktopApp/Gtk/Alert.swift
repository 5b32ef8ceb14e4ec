import CGtk

/// A modal message with buttons. GtkMessageDialog's constructor is variadic
/// (Swift can't call it) and GtkAlertDialog needs GTK 4.10, so this is built
/// from a plain window.
@MainActor
enum Alert {
    struct Choice {
        let title: String
        let classes: [String]
        let action: @MainActor () -> Void
        init(_ title: String, classes: [String] = [], action: @escaping @MainActor () -> Void = {}) {
            self.title = title; self.classes = classes; self.action = action
        }
    }

    /// `extra`: what the person fills in or picks, between the message and
    /// the buttons (a name, a class); `focus` gets the keyboard instead of
    /// the last button, and Return there (or in `enterFrom`) takes choice
    /// `enterTakes`. The
    /// window is gone when a choice's action runs: what it needs of
    /// `extra` must be kept as it changes. `dismissed` runs when the window
    /// is closed without a choice (its ✕, Alt+F4): a question whose asking
    /// already showed the answer (a toggle pressed) puts it back there.
    static func show(parent: UnsafeMutablePointer<GtkWidget>?, title: String, message: String,
                     choices: [Choice] = [], extra: Widget? = nil, focus: Widget? = nil, enterTakes: Int? = nil,
                     enterFrom: Widget? = nil, dismissed: (@MainActor () -> Void)? = nil) {
        let win = gtk_window_new()!
        gtk_window_set_title(ts_window(win), title)
        gtk_window_set_modal(ts_window(win), 1)
        gtk_window_set_resizable(ts_window(win), 0)
        if let parent { gtk_window_set_transient_for(ts_window(win), ts_window(parent)) }
        let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18, classes: ["alert"])
        UI.append(content, UI.label(title, classes: ["alert-title"]))
        let msg = UI.label(message)
        gtk_label_set_max_width_chars(ts_label(msg), 50)
        UI.append(content, msg)
        if let extra { UI.append(content, extra) }
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(row, GTK_ALIGN_END)
        let weakWin = WeakWidget(win)
        let all = choices.isEmpty ? [Choice(`_`("OK"), classes: ["suggested-action"])] : choices
        var last: Widget?
        var buttons: [Widget] = []
        for choice in all {
            let b = UI.button(choice.title, classes: choice.classes + ["alert-button"]) {
                if let w = weakWin.widget { gtk_window_destroy(ts_window(w)) }
                choice.action()
            }
            UI.append(row, b)
            last = b
            buttons.append(b)
        }
        // Return in the field takes the choice it stands for (Rename, Add).
        if let field = enterFrom ?? focus, let enterTakes, buttons.indices.contains(enterTakes) {
            let button = buttons[enterTakes]
            Signal.connect(UI.raw(field), "activate") { gtk_widget_activate(button) }
        }
        UI.append(content, row)
        if let dismissed {
            // A choice destroys the window, which is no close request.
            Signal.connectBool(UI.raw(win), "close-request") {
                dismissed()
                return false
            }
        }
        gtk_window_set_child(ts_window(win), content)
        gtk_window_present(ts_window(win))
        // The last choice is the safe default: Return or Space takes it.
        if let focus { gtk_widget_grab_focus(focus) } else if let last { gtk_widget_grab_focus(last) }
    }
}

/// GTK widgets are not Swift objects; this holds one weakly via GObject's weak
/// pointer so a handler never touches a destroyed widget. The slot is heap
/// memory of its own because GObject writes NULL into it on finalize.
final class WeakWidget {
    private let slot: UnsafeMutablePointer<gpointer?>
    init(_ w: UnsafeMutablePointer<GtkWidget>) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: gpointer(w))
        g_object_add_weak_pointer(ts_object(w), slot)
    }
    deinit {
        if let p = slot.pointee { g_object_remove_weak_pointer(ts_object(p), slot) }
        slot.deallocate()
    }
    var widget: UnsafeMutablePointer<GtkWidget>? { slot.pointee?.assumingMemoryBound(to: GtkWidget.self) }
}

/// What a dialog's field holds, kept as it changes, for the choice that runs
/// after the dialog is gone.
@MainActor
final class Kept<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
