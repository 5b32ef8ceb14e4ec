import CGtk
import Foundation
import TeamsketchCore

/// A sketch's time limit as − and + buttons a fingertip hits (a spin
/// button's arrows are 35 px wide) around the number, which says "No
/// limit" at 0. `TimeLimitSteps` decides what a press does.
@MainActor
final class MinutesStepper {
    let widget: Widget
    private(set) var minutes: Int
    private let steps: TimeLimitSteps
    private let value: Widget
    private var fewer: Widget?
    private var more: Widget?

    init(steps: TimeLimitSteps, minutes: Int) {
        self.steps = steps
        self.minutes = steps.clamped(minutes)
        value = UI.label("", classes: ["stepper-value"])
        widget = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        let fewer = UI.iconButton("list-remove-symbolic", tooltip: `_`("Fewer minutes"), classes: ["stepper-button"]) { [weak self] in
            guard let self else { return }
            self.set(self.steps.fewer(than: self.minutes))
        }
        let more = UI.iconButton("list-add-symbolic", tooltip: `_`("More minutes"), classes: ["stepper-button"]) { [weak self] in
            guard let self else { return }
            self.set(self.steps.more(than: self.minutes))
        }
        self.fewer = fewer
        self.more = more
        UI.append(widget, fewer)
        UI.append(widget, value)
        UI.append(widget, more)
        set(self.minutes)
    }

    private func set(_ newValue: Int) {
        minutes = steps.clamped(newValue)
        UI.setText(value, minutes == 0 ? `_`("No limit") : String(format: `_`("%d min"), minutes))
        if let fewer { gtk_widget_set_sensitive(fewer, steps.canTakeAway(from: minutes) ? 1 : 0) }
        if let more { gtk_widget_set_sensitive(more, steps.canAddMore(to: minutes) ? 1 : 0) }
    }
}
