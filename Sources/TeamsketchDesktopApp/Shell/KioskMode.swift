import CGtk
import Foundation
import TeamsketchCore

/// The kiosk's rules applied to the main window: fullscreen, closing only
/// with the teacher's PIN, and the start screen again when the machine has
/// been left alone. What the rules mean is `KioskSettings`; this only
/// listens to the window and asks the app to act.
@MainActor
final class KioskMode {
    private weak var app: TeamsketchApp?
    private var lastInput = Date()
    /// The UI tests' idle time in seconds (`TEAMSKETCH_KIOSK_IDLE_SECONDS`),
    /// instead of whole minutes.
    private let testLimit: TimeInterval?

    init(app: TeamsketchApp, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.app = app
        testLimit = environment["TEAMSKETCH_KIOSK_IDLE_SECONDS"].flatMap(Double.init).flatMap { (1...3600).contains($0) ? $0 : nil }
    }

    private var settings: KioskSettings { app?.preferences.kiosk ?? KioskSettings() }

    func attach(to window: Widget) {
        if settings.fullscreen { gtk_window_fullscreen(ts_window(window)) }
        // Every event counts as someone there, whichever widget takes it:
        // seen on its way down, before a canvas or a button handles it.
        let watcher = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(ts_controller(gp(watcher)), GTK_PHASE_CAPTURE)
        Signal.connectEvent(UnsafeMutableRawPointer(watcher), "event") { [weak self] _ in
            self?.lastInput = Date()
            return false
        }
        gtk_widget_add_controller(window, ts_controller(gp(watcher)))
        runEvery(ms: testLimit == nil ? 15_000 : 500) { [weak self] in
            guard let self, let app = self.app else { return false }
            if self.settings.shouldReturnHome(lastInput: self.lastInput, now: Date(), atHome: app.isAtHome,
                                              limit: self.testLimit) {
                FileHandle.standardError.write(Data("kiosk: left alone, back to the start\n".utf8))
                self.lastInput = Date()
                app.returnHomeForNextChild()
            }
            return true
        }
    }

    /// The window's close button, Alt+F4, the session's log-out: allowed,
    /// or the teacher's PIN is asked for first.
    func mayClose(teacherUnlocked: Bool) -> Bool {
        let allowed = settings.mayClose(teacherUnlocked: teacherUnlocked)
        if !allowed { FileHandle.standardError.write(Data("kiosk: closing needs the teacher's PIN\n".utf8)) }
        return allowed
    }
}
