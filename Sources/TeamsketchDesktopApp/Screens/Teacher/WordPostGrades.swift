import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Under the Buchstaben Post results: each pupil's grade and comment on
/// their results (one work per pupil, `GradeIdentity.wordPostResults`),
/// and the results with the grades as a spreadsheet.
@MainActor
final class WordPostGrades {
    let widget: Widget
    private let grading: PupilGrading
    private let window: Widget?
    private var editors: [String: GradeEditor] = [:]

    /// `window`: where the file chooser opens.
    init(grading: PupilGrading, window: Widget?, names: [String]) {
        self.grading = grading
        self.window = window
        let heading = UI.label(`_`("Grades"), classes: ["form-label"])
        gtk_label_set_xalign(ts_label(heading), 0)
        gtk_widget_set_hexpand(heading, 1)
        let export = UI.button(`_`("Export game stats (CSV)…"), classes: ["choice"]) { }
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10, [UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [heading, export])])
        if let notice = Self.unfiledNotice(grading.book) { UI.append(widget, notice) }
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
                grading.save(name, grade: grade, comment: text, editor: editor) { self != nil }
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
        // The table lets go of this when its widget goes (see "destroy").
        grading.load(editors) { [weak self] in self != nil }
    }

    /// Results whose player's name matched no pupil of the class stay on
    /// this laptop rather than being filed under a guess: the teacher is
    /// told whose, so a typo in a game's lobby does not go unseen.
    private static func unfiledNotice(_ book: GradeBook) -> Widget? {
        guard let unfiled = try? book.unfiled(), unfiled.count > 0 else { return nil }
        let text = String(format: _n("%d game result stays on this laptop: no pupil of the class is called %@.",
                                     "%d game results stay on this laptop: no pupil of the class is called %@.",
                                     unfiled.count), unfiled.count, unfiled.names.joined(separator: ", "))
        let label = UI.label(text, classes: ["hint"])
        gtk_label_set_xalign(ts_label(label), 0)
        gtk_label_set_wrap(ts_label(label), 1)
        return label
    }

    private func exportStats() {
        let grading = grading
        FileChooser.ask(parent: window, title: `_`("Export game stats"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: "buchstaben-post.csv",
                        filters: [.init(name: `_`("Spreadsheet (.csv)"), patterns: ["*.csv"])]) { path in
            Task { @MainActor in
                let pupils = await grading.roster.pupils(waitingAtMost: 5)
                let book = grading.book, titles = SpreadsheetTitles.game
                let written = await Task.detached { () -> Result<Void, any Error> in
                    Result {
                        let csv = try book.gameSheet(pupils: pupils, dialect: SpreadsheetTitles.dialect, titles: titles)
                        try Data(csv.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    }
                }.value
                if case .failure(let error) = written { grading.showError(`_`("The game stats could not be exported."), error) }
            }
        }
    }
}
