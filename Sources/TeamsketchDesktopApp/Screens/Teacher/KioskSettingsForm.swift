import CGtk
import Foundation
import TeamsketchCore

/// The kiosk's switches for this computer, under its classroom settings:
/// what `/etc/teamsketch/kiosk.conf` sets, settable by the teacher too
/// (written to this user's kiosk file, which wins key by key). The form
/// only shows and reports; what they mean is `KioskSettings`'.
@MainActor
final class KioskSettingsForm {
    let widget: Widget
    private var file: KioskConfigFile
    private let onChange: (KioskConfigFile) -> Void

    /// `current`: the settings in force (both files merged); `file`: the
    /// user's file, which the switches write.
    init(current: KioskSettings, file: KioskConfigFile, onChange: @escaping (KioskConfigFile) -> Void) {
        self.file = file
        self.onChange = onChange
        var grid = SettingsGrid()
        widget = grid.widget
        func add(_ title: String, _ control: Widget) { grid.add(title, control) }
        add(`_`("Full screen"), toggle(`_`("Full screen"), current.fullscreen) { $0.fullscreen = $1 })
        add(`_`("Closing needs the teacher's PIN"),
            toggle(`_`("Closing needs the teacher's PIN"), current.quitNeedsPIN) { $0.quitNeedsPIN = $1 })
        let range = KioskSettings.idleMinutesRange
        let spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)!
        gtk_spin_button_set_value(ts_spin(spin), Double(current.idleMinutes))
        UI.style(spin, ["form-entry"])
        let idle = `_`("Back to the start after minutes alone (0 = never)")
        UI.accessibleLabel(spin, idle)
        Signal.connect(UI.raw(spin), "value-changed") { [weak self] in
            guard let self else { return }
            self.file.idleMinutes = Int(gtk_spin_button_get_value_as_int(ts_spin(spin)))
            self.onChange(self.file)
        }
        add(`_`("Back to the start after (minutes alone)"), spin)
    }

    private func toggle(_ accessible: String, _ on: Bool, _ set: @escaping (inout KioskConfigFile, Bool) -> Void) -> Widget {
        let s = gtk_switch_new()!
        gtk_switch_set_active(ts_switch(s), on ? 1 : 0)
        UI.accessibleLabel(s, accessible)
        Signal.connectNotify(UI.raw(s), property: "active") { [weak self] in
            guard let self else { return }
            set(&self.file, gtk_switch_get_active(ts_switch(s)) != 0)
            self.onChange(self.file)
        }
        return s
    }
}
