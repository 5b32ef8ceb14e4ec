import CGtk

/// The teacher's settings as rows of a label and its control, the labels
/// in one column, as GNOME's settings lay them out.
@MainActor
struct SettingsGrid {
    let widget: Widget
    private var row: Int32 = 0

    init() {
        widget = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(widget), 14)
        gtk_grid_set_column_spacing(ts_grid(widget), 24)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
    }

    mutating func add(_ title: String, _ control: Widget) {
        let l = UI.label(title, classes: ["form-label"])
        gtk_widget_set_halign(l, GTK_ALIGN_START)
        gtk_label_set_xalign(ts_label(l), 0)
        gtk_widget_set_halign(control, GTK_ALIGN_START)
        gtk_widget_set_valign(control, GTK_ALIGN_CENTER)
        gtk_grid_attach(ts_grid(widget), l, 0, row, 1, 1)
        gtk_grid_attach(ts_grid(widget), control, 1, row, 1, 1)
        row += 1
    }

    /// A quiet line across both columns, saying why the rows above it are
    /// as they are.
    mutating func note(_ text: String) {
        let l = UI.label(text, classes: ["settings-note"])
        gtk_label_set_wrap(ts_label(l), 1)
        gtk_label_set_xalign(ts_label(l), 0)
        gtk_widget_set_halign(l, GTK_ALIGN_START)
        gtk_grid_attach(ts_grid(widget), l, 0, row, 2, 1)
        row += 1
    }
}
