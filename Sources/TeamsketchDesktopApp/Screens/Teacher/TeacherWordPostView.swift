import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Buchstaben Post as the teacher sees it: the results and the word lists.
/// Results, per pupil: words finished, the rounds played, the average time
/// per finished word, letters sent and received, wrong placements, and a
/// small chart of the time each finished word took, oldest to newest
/// (going down means getting quicker).
@MainActor
final class TeacherWordPostView {
    let widget: Widget
    private var pools: TeacherPoolsView?
    /// The pictures the pupils drew, beside their names in the results.
    private let faces = AuthorPictureLoader()

    /// `grading`: the pupils' grades for their games; `pictures`: where
    /// the pupils' drawn pictures are found (`own`: this device's pupil);
    /// `wordLists`: the word lists' page, made when first shown.
    init(nav: any Navigator, book: GradeBook, grading: PupilGrading, pictures: SketchLibrary, own: Profile,
         wordLists: @escaping @MainActor () -> TeacherPoolsView) {
        let pages = gtk_stack_new()!
        gtk_stack_set_transition_type(ts_stack(pages), GTK_STACK_TRANSITION_TYPE_NONE)
        UI.expand(pages)
        gtk_stack_add_named(ts_stack(pages), Self.results(nav: nav, book: book, grading: grading, pictures: pictures, own: own, faces: faces), "results")
        let tabs = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked"])
        gtk_widget_set_halign(tabs, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [tabs, pages])
        gtk_widget_set_margin_top(widget, 8)
        var first: Widget?
        for (name, title) in [("results", `_`("Results")), ("pools", `_`("Word lists"))] {
            let b = gtk_toggle_button_new_with_label(title)!
            UI.style(b, ["choice"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else {
                first = b
                gtk_toggle_button_set_active(ts_toggle(b), 1)
            }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                guard gtk_toggle_button_get_active(ts_toggle(b)) != 0, let self else { return }
                if name == "pools", self.pools == nil {
                    let view = wordLists()
                    self.pools = view
                    gtk_stack_add_named(ts_stack(pages), view.widget, "pools")
                }
                gtk_stack_set_visible_child_name(ts_stack(pages), name)
            }
            UI.append(tabs, b)
        }
    }

    private static func results(nav: any Navigator, book: GradeBook, grading: PupilGrading, pictures: SketchLibrary,
                                own: Profile, faces: AuthorPictureLoader) -> Widget {
        let table = gtk_grid_new()!
        gtk_grid_set_row_spacing(ts_grid(table), 10)
        gtk_grid_set_column_spacing(ts_grid(table), 18)
        gtk_widget_set_halign(table, GTK_ALIGN_CENTER)
        let headings = [`_`("Pupil"), `_`("Words"), `_`("Rounds"), `_`("Time per word"), `_`("Letters sent"),
                        `_`("Letters received"), `_`("Wrong placements"), `_`("Over time")]
        for (column, text) in headings.enumerated() {
            let l = UI.label(text, classes: ["card-name"])
            gtk_label_set_xalign(ts_label(l), 0)
            gtk_label_set_max_width_chars(ts_label(l), 12)
            gtk_grid_attach(ts_grid(table), l, Int32(column), 0, 1, 1)
        }
        let records: [WordPostPlayerRecord]
        do {
            records = try book.players().map(book.results)
        } catch {
            records = []
            nav.showError(`_`("The game results could not be read."), error)
        }
        // Each pupil's name with a place for their picture, filled in once
        // the pictures are read and decoded (away from the main thread).
        var slots: [(slot: Widget, name: String)] = []
        for (i, r) in records.enumerated() {
            let average = r.averageMilliseconds.map { String(format: `_`("%.0f s"), Double($0) / 1000) } ?? "–"
            let cells = [r.playerName, String(r.wordsFinished), String(r.rounds.count), average, String(r.lettersSent),
                         String(r.lettersReceived), String(r.wrongPlacements)]
            for (column, text) in cells.enumerated() {
                let l = UI.label(text, classes: column == 0 ? ["card-name"] : ["table-cell"])
                gtk_label_set_xalign(ts_label(l), 0)
                var cell = l
                if column == 0 {
                    let slot = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
                    slots.append((slot, r.playerName))
                    cell = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [slot, l])
                    gtk_widget_set_valign(l, GTK_ALIGN_CENTER)
                }
                gtk_grid_attach(ts_grid(table), cell, Int32(column), Int32(i + 1), 1, 1)
            }
            gtk_grid_attach(ts_grid(table), Self.chart(r.finishedSeconds, name: r.playerName), 7, Int32(i + 1), 1, 1)
        }
        if !slots.isEmpty {
            let rows = slots
            faces.load(from: pictures, own: own) { [weak faces] in
                guard let faces else { return }
                for (slot, name) in rows {
                    guard let picture = faces.picture(for: name) else { continue }
                    UI.append(slot, Avatar.make(name: name, picture: picture, size: 36))
                }
            }
        }
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [table])
        gtk_widget_set_margin_top(page, 12)
        if records.isEmpty {
            UI.append(page, UI.label(`_`("Nobody has played Buchstaben Post on this computer yet."), classes: ["hint"]))
        } else {
            UI.append(page, WordPostGrades(grading: grading, window: nav.window, names: records.map(\.playerName)).widget)
        }
        let scroller = UI.scrolled(page, sideways: true)
        UI.expand(scroller)
        return scroller
    }

    /// A line through the seconds per word, scaled to the pupil's slowest.
    private static func chart(_ seconds: [Double], name: String) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_widget_set_size_request(area, 160, 32)
        UI.accessibleLabel(area, String(format: `_`("Time per word of %@ over time"), name))
        UI.setDrawFunc(area) { cr, w, h in
            guard seconds.count > 1, let most = seconds.max(), most > 0 else { return }
            let width = Double(w) - 4, height = Double(h) - 4
            cairo_set_source_rgb(cr, 0.10, 0.25, 0.66)
            cairo_set_line_width(cr, 2)
            for (i, s) in seconds.enumerated() {
                let x = 2 + width * Double(i) / Double(seconds.count - 1)
                let y = 2 + height * (1 - s / most)
                if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
            }
            cairo_stroke(cr)
        }
        return area
    }
}
