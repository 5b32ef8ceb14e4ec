import CGtk
import Foundation
import LearnModel

/// One pupil's grade as the teacher gives it: five big keys (a second tap
/// on the chosen one takes it back), a one-line comment and Save. The
/// owner places the parts (a panel stacks them, a table spreads them over
/// columns) and says what saving does; `save` answers with the line to
/// show beside the button.
@MainActor
final class GradeEditor {
    let keys: Widget
    let comment: Widget
    let saveButton: Widget
    let status: Widget
    /// What the grade was before its latest edit, a line per earlier edit.
    let history: Widget
    private var buttons: [Int: Widget] = [:]
    private(set) var grade: Int?
    private let save: @MainActor (Int?, String, GradeEditor) -> Void

    /// `pupil` names the keys for screen readers ("Grade 2 for Mia").
    init(pupil: String, save: @escaping @MainActor (Int?, String, GradeEditor) -> Void) {
        self.save = save
        keys = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        comment = gtk_entry_new()!
        status = UI.label("", classes: ["hint"])
        gtk_label_set_wrap(ts_label(status), 0)
        gtk_label_set_xalign(ts_label(status), 0)
        history = UI.label("", classes: ["hint"])
        gtk_label_set_xalign(ts_label(history), 0)
        gtk_widget_set_visible(history, 0)
        saveButton = UI.button(`_`("Save"), classes: ["choice"]) { }
        for g in GradeRecord.grades {
            let b = gtk_toggle_button_new_with_label(String(g))!
            UI.style(b, ["grade"])
            UI.accessibleLabel(b, String(format: `_`("Grade %d for %@"), g, pupil))
            Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.choose(g) }
            buttons[g] = b
            UI.append(keys, b)
        }
        gtk_entry_set_placeholder_text(ts_entry(comment), `_`("Comment"))
        gtk_entry_set_max_length(ts_entry(comment), Int32(GradeRecord.maxCommentCharacters))
        gtk_widget_set_hexpand(comment, 1)
        UI.accessibleLabel(comment, String(format: `_`("Comment for %@"), pupil))
        Signal.connect(UI.raw(saveButton), "clicked") { [weak self] in self?.saveNow() }
        Signal.connect(UI.raw(comment), "activate") { [weak self] in self?.saveNow() }
    }

    private func saveNow() {
        save(grade, UI.entryText(comment), self)
    }

    func show(_ record: GradeRecord?, history earlier: [GradeRecord] = []) {
        grade = nil
        choose(record?.grade)
        gtk_editable_set_text(ts_editable(comment), record?.comment ?? "")
        showHistory(earlier)
    }

    func showHistory(_ earlier: [GradeRecord]) {
        let lines = earlier.prefix(Self.historyLines).map { e -> String in
            let when = Self.when.string(from: Date(timeIntervalSince1970: Double(e.at) / 1000))
            let what = e.deleted ? `_`("taken back") : e.grade.map { String(format: `_`("Grade %d"), $0) } ?? "–"
            return e.comment.isEmpty ? "\(when): \(what)"
                : String(format: `_`("%@: %@ · “%@”"), when, what, e.comment)
        }
        UI.setText(history, lines.isEmpty ? "" : `_`("Before:") + "\n" + lines.joined(separator: "\n"))
        gtk_widget_set_visible(history, lines.isEmpty ? 0 : 1)
    }

    /// The newest earlier edits shown; the log on the server keeps them all.
    private static let historyLines = 5

    private static let when: DateFormatter = {
        let f = DateFormatter()
        f.dateStyle = .medium
        f.timeStyle = .short
        return f
    }()

    private func choose(_ g: Int?) {
        grade = g == nil || grade == g ? nil : g
        for (n, b) in buttons { gtk_toggle_button_set_active(ts_toggle(b), n == grade ? 1 : 0) }
    }

    func say(_ text: String) { UI.setText(status, text) }
}
