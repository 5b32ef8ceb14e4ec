import CGtk
import Foundation
import TeamsketchCore

/// The first start of a laptop (`FirstRun`): two big choices with their
/// pictures. "This laptop belongs to a class" leads the teacher through
/// the school server's sign-in to picking the class; "Use without a
/// server" goes straight to the start screen and is not asked again.
@MainActor
final class FirstRunScreen {
    let widget: Widget

    /// `useWithoutServer`: remembers the choice, so it is not asked again.
    init(nav: any Navigator, useWithoutServer: @escaping @MainActor () throws -> Void) {
        let title = UI.label(`_`("Welcome to Teamsketch!"), classes: ["home-title"])
        let question = UI.label(`_`("How is this laptop used?"), classes: ["form-label"])
        let forClass = UI.button(`_`("This laptop belongs to a class"), icon: "system-users-symbolic",
                                 classes: ["big-button", "suggested-action"]) { [weak nav] in
            nav?.showSchool(settingUpClass: true)
        }
        let alone = UI.button(`_`("Use without a server"), icon: "computer-symbolic", classes: ["big-button"]) { [weak nav] in
            logProblems { try useWithoutServer() }
            nav?.showHome()
        }
        let classHint = UI.label(`_`("The teacher signs in once and picks the class; then the children sign in with their pictures."),
                                 classes: ["hint"])
        let aloneHint = UI.label(`_`("Sketches stay on this laptop."), classes: ["hint"])
        for hint in [classHint, aloneHint] {
            gtk_label_set_wrap(ts_label(hint), 1)
            gtk_label_set_max_width_chars(ts_label(hint), 28)
            gtk_label_set_justify(ts_label(hint), GTK_JUSTIFY_CENTER)
        }
        let columns = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 48, [
            UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [forClass, classHint]),
            UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [alone, aloneHint]),
        ])
        gtk_widget_set_halign(columns, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 32, [title, question, columns])
        UI.center(widget)
    }
}
