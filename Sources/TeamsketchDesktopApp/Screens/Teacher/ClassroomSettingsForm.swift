import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The classroom settings as switches, one row each, applied as soon as
/// they change (as GNOME's settings are). The form only shows and reports;
/// what a setting means is `ClassroomSettings`'.
@MainActor
final class ClassroomSettingsForm {
    let widget: Widget
    private(set) var settings: ClassroomSettings
    private let onChange: (ClassroomSettings) -> Void
    private var switches: [Widget] = []
    private var activityChecks: [ClassSettingsRecord.Activity: Widget] = [:]
    private var ownOnlySwitch: Widget?
    private var defaultMinutes: Widget?
    private var updating = false

    init(settings: ClassroomSettings, onChange: @escaping (ClassroomSettings) -> Void) {
        self.settings = settings
        self.onChange = onChange
        var grid = SettingsGrid()
        widget = grid.widget
        build(&grid)
    }

    private func build(_ grid: inout SettingsGrid) {
        func add(_ title: String, _ control: Widget) { grid.add(title, control) }
        add(`_`("Eraser"), toggle(`_`("Eraser"), \.eraserAllowed))
        let ownOnly = toggle(`_`("Eraser only for one's own lines"), \.eraserOwnStrokesOnly)
        ownOnlySwitch = ownOnly
        add(`_`("Eraser only for one's own lines"), ownOnly)
        add(`_`("Take back one's own last lines"), toggle(`_`("Take back one's own last lines"), \.undoAllowed))
        add(`_`("The host may clear the sheet for everyone"),
            toggle(`_`("The host may clear the sheet for everyone"), \.clearAllowed))
        grid.note(`_`("Usual: the eraser and undo only for one's own lines, no clearing. Children get upset when others rub out their work."))
        add(`_`("Sounds in Buchstaben Post"), toggle(`_`("Sounds in Buchstaben Post"), \.soundsOn))
        add(`_`("Draw with a finger"), toggle(`_`("Draw with a finger"), \.fingerDraws))
        add(`_`("Join through the school server first"),
            toggle(`_`("Join through the school server first"), \.throughSchoolServer))

        let range = ClassroomSettings.timeLimitRange
        let maximum = minutesSpin(`_`("Longest time limit in minutes (0 = no maximum)"), range, settings.maxTimeLimitMinutes) {
            [weak self] in self?.settings.setMaxTimeLimit($0)
        }
        let standard = minutesSpin(`_`("Time limit of a new sketch in minutes (0 = none)"), range,
                                   settings.defaultTimeLimitMinutes) { [weak self] in self?.settings.defaultTimeLimitMinutes = $0 }
        defaultMinutes = standard
        add(`_`("Time limit of a new sketch (minutes)"), standard)
        add(`_`("Longest time limit (minutes)"), maximum)

        let activities = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        for (activity, title) in [(ClassSettingsRecord.Activity.teamSketch, `_`("Team Sketch")),
                                  (.wordPost, `_`("Buchstaben Post"))] {
            let check = gtk_check_button_new_with_label(title)!
            gtk_check_button_set_active(ts_check(check), settings.offers(activity) ? 1 : 0)
            Signal.connect(UI.raw(check), "toggled") { [weak self] in
                guard let self, !self.updating else { return }
                if gtk_check_button_get_active(ts_check(check)) != 0 {
                    self.settings.activities.insert(activity)
                } else if self.settings.activities.count > 1 {
                    self.settings.activities.remove(activity)
                } else {
                    // One activity stays: a start screen with nothing on it
                    // would leave the pupils stuck.
                    self.updating = true
                    gtk_check_button_set_active(ts_check(check), 1)
                    self.updating = false
                    return
                }
                self.changed()
            }
            activityChecks[activity] = check
            UI.append(activities, check)
        }
        add(`_`("Activities on the start screen"), activities)
        refreshDependents()
    }

    private func toggle(_ accessible: String, _ key: WritableKeyPath<ClassroomSettings, Bool>) -> Widget {
        let s = gtk_switch_new()!
        gtk_switch_set_active(ts_switch(s), settings[keyPath: key] ? 1 : 0)
        UI.accessibleLabel(s, accessible)
        Signal.connectNotify(UI.raw(s), property: "active") { [weak self] in
            guard let self, !self.updating else { return }
            self.settings[keyPath: key] = gtk_switch_get_active(ts_switch(s)) != 0
            self.changed()
        }
        switches.append(s)
        return s
    }

    private func minutesSpin(_ accessible: String, _ range: ClosedRange<Int>, _ value: Int,
                             set: @escaping (Int) -> Void) -> Widget {
        let spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 5)!
        gtk_spin_button_set_value(ts_spin(spin), Double(value))
        UI.style(spin, ["form-entry"])
        UI.accessibleLabel(spin, accessible)
        Signal.connect(UI.raw(spin), "value-changed") { [weak self] in
            guard let self, !self.updating else { return }
            set(Int(gtk_spin_button_get_value_as_int(ts_spin(spin))))
            self.changed()
        }
        return spin
    }

    private func changed() {
        refreshDependents()
        onChange(settings)
    }

    /// "Own lines only" means nothing without the eraser; a maximum pulls
    /// the default down, and the field shows it.
    private func refreshDependents() {
        updating = true
        defer { updating = false }
        if let ownOnlySwitch { gtk_widget_set_sensitive(ownOnlySwitch, settings.eraserAllowed ? 1 : 0) }
        if let defaultMinutes { gtk_spin_button_set_value(ts_spin(defaultMinutes), Double(settings.defaultTimeLimitMinutes)) }
    }
}
