import CGtk
import Foundation
import LearnRender
import TeamsketchCore

/// Shown while a big sketch file is read: the file's name, a progress bar
/// that moves with the reading, and one big Stop button. The reading itself
/// runs elsewhere (`SketchFileOpening`); this only shows its steps.
@MainActor
final class OpeningScreen {
    let widget: Widget
    private let bar: Widget
    private let step: Widget

    init(fileName: String, onStop: @escaping @MainActor () -> Void) {
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 24)
        UI.center(widget)
        UI.append(widget, UI.label(fileName, classes: ["home-title"]))
        bar = gtk_progress_bar_new()!
        gtk_widget_set_size_request(bar, 480, 24)
        UI.accessibleLabel(bar, `_`("Opening the sketch"))
        UI.append(widget, bar)
        step = UI.label(`_`("Reading the file…"), classes: ["hint"])
        UI.append(widget, step)
        let stop = UI.button(`_`("Stop"), icon: "process-stop-symbolic", classes: ["big-button"], action: onStop)
        gtk_widget_set_halign(stop, GTK_ALIGN_CENTER)
        UI.append(widget, stop)
    }

    func show(_ s: SketchReadProgress.Step) {
        switch s {
        case .reading(let fraction):
            // Reading the bytes is the first half of the work; the rest moves in steps.
            gtk_progress_bar_set_fraction(ts_progress_bar(UI.raw(bar)), fraction * 0.5)
            UI.setText(step, `_`("Reading the file…"))
        case .unpacking:
            gtk_progress_bar_set_fraction(ts_progress_bar(UI.raw(bar)), 0.6)
            UI.setText(step, `_`("Unpacking…"))
        case .readingStrokes:
            gtk_progress_bar_set_fraction(ts_progress_bar(UI.raw(bar)), 0.8)
            UI.setText(step, `_`("Reading the strokes…"))
        }
    }
}
