import Foundation
import Synchronization

/// Says in the log when the GTK loop was kept busy for seconds: a frozen
/// window for a pupil, and for a UI test a click that seems lost. The loop
/// stamps the time every 200 ms; a thread of its own looks at the stamp and
/// writes `main loop: busy for 3 s` while the loop is stuck (so a loop that
/// never comes back still leaves a line) and, once it is back, `main loop:
/// was busy for 4.2 s`.
enum MainLoopWatch {
    private static let lastBeat = Atomic<Int64>(0)
    private static let started = Atomic<Bool>(false)
    static let stuckAfterSeconds = 3.0

    @MainActor
    static func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        beat()
        runEvery(ms: 200) { beat(); return true }
        let thread = Thread {
            var reported = false
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                let busy = Double(now() - lastBeat.load(ordering: .relaxed)) / 1000
                if busy >= stuckAfterSeconds, !reported {
                    reported = true
                    log(String(format: "main loop: busy for %.0f s", busy))
                } else if busy < 1 {
                    reported = false
                }
            }
        }
        thread.name = "main-loop-watch"
        thread.start()
    }

    private static func beat() {
        let t = now(), last = lastBeat.exchange(t, ordering: .relaxed)
        // A gap the watch thread may have seen only in part: the whole of it.
        if last != 0, Double(t - last) / 1000 >= stuckAfterSeconds {
            log(String(format: "main loop: was busy for %.1f s", Double(t - last) / 1000))
        }
    }

    private static func now() -> Int64 { Int64(ProcessInfo.processInfo.systemUptime * 1000) }

    private static func log(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
