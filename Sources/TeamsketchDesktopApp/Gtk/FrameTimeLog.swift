import CGtk
import Foundation

/// For `make bench` (the gallery scroll under Xvfb): with
/// TEAMSKETCH_FRAME_LOG=1 in the environment, the widget's frame clock is
/// kept ticking and the time between frames is written to stderr as
/// `frames: n=… p50=… p99=… max=… ms late=…` every two seconds, so a frame the
/// main thread was too busy to draw on time shows as a long gap.
/// Does nothing otherwise.
@MainActor
enum FrameTimeLog {
    static func attach(to widget: Widget, label: String) {
        guard ProcessInfo.processInfo.environment["TEAMSKETCH_FRAME_LOG"] == "1" else { return }
        var last = 0
        var gaps: [Double] = []
        var since = 0
        let tick: @MainActor (OpaquePointer) -> Bool = { clock in
            let t = gdk_frame_clock_get_frame_time(clock)   // µs
            if last != 0 { gaps.append(Double(t - last) / 1000) }
            last = t
            if since == 0 { since = t }
            if t - since >= 2_000_000, !gaps.isEmpty {
                let s = gaps.sorted()
                // Late: a frame that took longer than one and a half of the
                // usual (at 60 Hz: 25 ms or more, a frame missed).
                let late = s.filter { $0 > s[s.count / 2] * 1.5 }.count
                let line = String(format: "frames %@: n=%d p50=%.1f p99=%.1f max=%.1f ms late=%d\n", label, s.count,
                                  s[s.count / 2], s[min(s.count - 1, s.count * 99 / 100)], s[s.count - 1], late)
                FileHandle.standardError.write(Data(line.utf8))
                gaps.removeAll(keepingCapacity: true)
                since = t
            }
            return true
        }
        let box = Unmanaged.passRetained(ClosureBox(tick) as AnyObject).toOpaque()
        gtk_widget_add_tick_callback(widget, { _, clock, data in
            let f = (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! ClosureBox<@MainActor (OpaquePointer) -> Bool>).value
            return MainActor.assumeIsolated { f(clock!) } ? 1 : 0
        }, box, { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        })
    }
}
