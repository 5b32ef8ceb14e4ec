import CGtk
import Foundation

/// Start-up checks used by tests and benchmarks.
extension TeamsketchApp {
    /// Prints the time to the first painted frame that shows what was
    /// asked for and quits: with a file to open, the first frame once it is
    /// read (its canvas, or the message that it could not be: the file is
    /// read off the main thread, so the window paints home first); else the
    /// first frame at all.
    func reportFirstFrame(_ win: Widget) {
        var reported = false
        let awaitsFile = options.openFile != nil
        Signal.connect(UI.raw(win), "map") { [weak self] in
            guard let clock = gtk_widget_get_frame_clock(win) else { return }
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                guard !reported else { return }
                if awaitsFile, self?.sketchDesk.isOpening == true { return }
                reported = true
                let ms = (ContinuousClock.now - launchInstant) / .milliseconds(1)
                print("first-frame: \(String(format: "%.1f", ms)) ms")
                fflush(nil)
                self?.quit()
            }
        }
    }

    /// Proves that Swift concurrency's main actor and DispatchQueue.main run
    /// inside the GTK loop (the bridge in MainQueueBridge).
    func selfTestMainActor() {
        var taskRan = false, dispatchRan = false
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(20))
            taskRan = true
        }
        DispatchQueue.main.async { dispatchRan = true }
        let started = ContinuousClock.now
        runEvery(ms: 10) { [weak self] in
            if taskRan && dispatchRan {
                print("main-actor: ok")
                fflush(nil)
                self?.quit()
                return false
            }
            if ContinuousClock.now - started > .seconds(5) {
                print("main-actor: FAILED task=\(taskRan) dispatch=\(dispatchRan)")
                fflush(nil)
                self?.quit(status: 3)
                return false
            }
            return true
        }
    }
}
