import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Asks for the sketch's name, line guides and time limit (0–120 minutes,
/// or up to the class's maximum, in steps of five). Everything else about the lesson is the
/// teacher's classroom settings.
@MainActor
final class NewSketchScreen {
    let widget: Widget
    private let nameEntry: Widget
    private let minutes: MinutesStepper
    private var guides: LineGuides = .none
    private let settings: ClassroomSettings

    /// `together`: the sketch is drawn by several devices; Start opens a lobby.
    /// `settings`: the classroom's, which bound the time limit.
    init(nav: any Navigator, settings: ClassroomSettings, together: Bool = false) {
        self.settings = settings
        nameEntry = gtk_entry_new()!
        UI.style(nameEntry, ["form-entry"])
        gtk_editable_set_text(ts_editable(nameEntry), Self.defaultName())
        UI.accessibleLabel(nameEntry, `_`("Name of the sketch"))

        minutes = MinutesStepper(steps: TimeLimitSteps(settings: settings), minutes: settings.defaultTimeLimitMinutes)
        UI.accessibleDescription(minutes.widget, settings.maxTimeLimitMinutes > 0
            ? String(format: `_`("Time limit in minutes (at most %d)"), settings.maxTimeLimitMinutes)
            : `_`("Time limit in minutes (0 = no limit)"))

        let guideRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        var first: Widget?
        for (g, title) in [(LineGuides.none, `_`("Plain")), (.squared, `_`("Squared")), (.lined, `_`("Lined"))] {
            let b = gtk_toggle_button_new_with_label(title)!
            UI.style(b, ["choice"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else {
                first = b
                gtk_toggle_button_set_active(ts_toggle(b), 1)
            }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.guides = g }
            }
            UI.append(guideRow, b)
        }

        let go: @MainActor () -> Void = { [weak self, weak nav] in
            guard let self, let nav else { return }
            if together { nav.hostSession(self.meta()) } else { nav.startSketch(self.meta()) }
        }
        let start = together
            ? UI.button(`_`("Open the lobby"), icon: "system-users-symbolic", classes: ["big-button", "suggested-action"], action: go)
            : UI.button(`_`("Start drawing"), icon: "document-edit-symbolic", classes: ["big-button", "suggested-action"], action: go)
        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak nav] in
            nav?.showHome()
        }
        Signal.connect(UI.raw(nameEntry), "activate", go)

        let form = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(form), 18)
        gtk_grid_set_column_spacing(ts_grid(form), 18)
        let rows: [(String, Widget)] = [(`_`("Name"), nameEntry), (`_`("Lines"), guideRow), (`_`("Minutes"), minutes.widget)]
        for (i, (title, control)) in rows.enumerated() {
            let l = UI.label(title, classes: ["form-label"])
            gtk_widget_set_halign(l, GTK_ALIGN_END)
            gtk_grid_attach(ts_grid(form), l, 0, Int32(i), 1, 1)
            gtk_grid_attach(ts_grid(form), control, 1, Int32(i), 1, 1)
        }
        UI.append(widget, UI.label(together ? `_`("Draw together") : `_`("New sketch"), classes: ["home-title"]))
        UI.append(widget, form)
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, start])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        UI.center(widget)
    }

    func focusName() {
        gtk_widget_grab_focus(nameEntry)
    }

    private func meta() -> SketchMeta {
        var name = UI.entryText(nameEntry).trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { name = Self.defaultName() }
        let limit = settings.clampedTimeLimit(minutes.minutes)
        return SketchMeta(name: name, guides: guides, timeLimitMinutes: limit)
    }

    private static func defaultName() -> String {
        let f = FormatLocale.dateFormatter(date: .medium, time: .short)
        return String(format: `_`("Sketch of %@"), f.string(from: Date()))
    }
}
