import CGtk
import Foundation

/// On Linux, libdispatch's main queue is not drained while `g_application_run`
/// owns the main thread, so `@MainActor` jobs and `DispatchQueue.main` blocks
/// would never run. libdispatch exposes the queue's wake-up eventfd for
/// foreign run loops: watch it from GLib and drain when it fires.
enum MainQueueBridge {
    nonisolated(unsafe) private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        let fd = _dispatch_get_main_queue_handle_4CF()
        _ = g_unix_fd_add(fd, G_IO_IN, { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, 8)
            _dispatch_main_queue_callback_4CF(nil)
            return 1 // G_SOURCE_CONTINUE
        }, nil)
    }
}
