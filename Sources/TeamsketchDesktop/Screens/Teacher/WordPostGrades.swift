import CGtk
import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

/// Under the Buchstaben Post results: each pupil's grade and comment on
/// their results (one work per pupil, `GradeIdentity.wordPostResults`),
/// and the results with the grades as a spreadsheet.
@MainActor
final class WordPostGrades {
    let widget: Widget
    private weak var app: TeamsketchApp?
    private var editors: [String: GradeEditor] = [:]

    init(app: TeamsketchApp, names: [String]) {
        self.app = app
        let heading = UI.label(`_`("Grades"), classes: ["form-label"])
        gtk_label_set_xalign(ts_label(heading), 0)
        gtk_widget_set_hexpand(heading, 1)
        let export = UI.button(`_`("Export game stats (CSV)…"), classes: ["choice"]) { }
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10, [UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [heading, export])])
        if let notice = Self.unfiledNotice(app.store) { UI.append(widget, notice) }
        gtk_widget_set_margin_top(widget, 12)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(widget, 24)
        gtk_widget_set_margin_end(widget, 24)
        Signal.connect(UI.raw(export), "clicked") { [weak self] in self?.exportStats() }
        let table = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(table), 8)
        gtk_grid_set_column_spacing(ts_grid(table), 12)
        for (i, name) in names.enumerated() {
            let editor = GradeEditor(pupil: name) { [weak self] grade, text, editor in
                guard let app = self?.app else { return }
                PupilGrading.save(app, sketch: nil, name: name, grade: grade, comment: text, editor: editor)
            }
            editors[name] = editor
            let label = UI.label(name, classes: ["card-name"])
            gtk_label_set_xalign(ts_label(label), 0)
            gtk_widget_set_size_request(editor.comment, 260, -1)
            // A pupil's row, and under it what their grade was before.
            let row = Int32(2 * i)
            gtk_grid_attach(ts_grid(table), label, 0, row, 1, 1)
            gtk_grid_attach(ts_grid(table), editor.keys, 1, row, 1, 1)
            gtk_grid_attach(ts_grid(table), editor.comment, 2, row, 1, 1)
            gtk_grid_attach(ts_grid(table), editor.saveButton, 3, row, 1, 1)
            gtk_grid_attach(ts_grid(table), editor.status, 4, row, 1, 1)
            gtk_grid_attach(ts_grid(table), editor.history, 1, row + 1, 4, 1)
        }
        UI.append(widget, table)
        // The grades live as long as the table shows them.
        Signal.connect(UI.raw(widget), "destroy") { _ = self }
        load()
    }

    /// Results whose player's name matched no pupil of the class stay on
    /// this laptop rather than being filed under a guess: the teacher is
    /// told whose, so a typo in a game's lobby does not go unseen.
    private static func unfiledNotice(_ store: LocalStore?) -> Widget? {
        guard let unfiled = try? store?.unfiledResults(), unfiled.count > 0 else { return nil }
        let text = String(format: _n("%d game result stays on this laptop: no pupil of the class is called %@.",
                                     "%d game results stay on this laptop: no pupil of the class is called %@.",
                                     unfiled.count), unfiled.count, unfiled.names.joined(separator: ", "))
        let label = UI.label(text, classes: ["hint"])
        gtk_label_set_xalign(ts_label(label), 0)
        gtk_label_set_wrap(ts_label(label), 1)
        return label
    }

    private func load() {
        guard let app, let store = app.store else { return }
        for (name, editor) in editors {
            PupilGrading.show(PupilGrading.current(store, pupils: GradedPupils(), sketch: nil, name: name), in: editor, store)
        }
        Task { @MainActor [weak self] in
            let pupils = await TeacherRoster.pupils(app)
            guard let self, !pupils.roster.isEmpty else { return }
            for (name, editor) in self.editors {
                let before = PupilGrading.current(store, pupils: GradedPupils(), sketch: nil, name: name)
                let now = PupilGrading.current(store, pupils: pupils, sketch: nil, name: name)
                if now != before { PupilGrading.show(now, in: editor, store) }
            }
        }
    }

    private func exportStats() {
        guard let app, let store = app.store else { return }
        FileChooser.ask(parent: app.window, title: `_`("Export game stats"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: "buchstaben-post.csv",
                        filters: [.init(name: `_`("Spreadsheet (.csv)"), patterns: ["*.csv"])]) { [weak app] path in
            Task { @MainActor in
                guard let app else { return }
                let pupils = await TeacherRoster.pupils(app, waitingAtMost: 5)
                let written = await Task.detached { () -> Result<Void, any Error> in
                    Result {
                        let csv = try GradeExports.gameStats(store: store, pupils: pupils)
                        try Data(csv.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    }
                }.value
                if case .failure(let error) = written { app.showError(`_`("The game stats could not be exported."), error) }
            }
        }
    }
}
