import CGtk
import LearnModel

/// A felt pen to tap: a round button in the pen's colour, named for screen
/// readers and in its tooltip. The canvas and the "Me" sheet use the same.
@MainActor
enum PenButton {
    static func make(_ color: PenColor, classes: [String] = [], action: @escaping @MainActor () -> Void) -> Widget {
        let b = gtk_button_new()!
        UI.style(b, ["pen", "pen-\(PenColorCSS(color: color).name)"] + classes)
        gtk_widget_set_valign(b, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(b, color.localizedName)
        UI.accessibleLabel(b, color.localizedName)
        Signal.connect(UI.raw(b), "clicked", action)
        return b
    }
}
