import CAvahi
import Foundation

/// A GLib main loop without a window, for CLI commands that use Avahi or the
/// main actor (`discover`, `announce`, and the session's `host`/`observe`).
/// Avahi's GLib poll and the main actor (through MainQueueBridge) both run
/// inside it, so the main thread must run this loop rather than block.
@MainActor
package final class HeadlessMainLoop {
    private let loop: OpaquePointer
    private var stopping = false
    private var signalSources: [any DispatchSourceSignal] = []
    private let onStop: @MainActor () async -> Void

    static let stopLimitMilliseconds: UInt32 = 3000

    /// `onStop` runs once, inside the loop, before it quits: on `stop()`,
    /// after `seconds`, or (with `handleSignals`) on SIGINT/SIGTERM.
    package init(seconds: Double? = nil, handleSignals: Bool = true, onStop: @escaping @MainActor () async -> Void = {}) {
        MainQueueBridge.install()
        loop = g_main_loop_new(nil, 0)
        self.onStop = onStop
        if let seconds {
            runAfter(ms: UInt32(max(0, min(seconds * 1000, Double(UInt32.max))))) { [weak self] in self?.stop() }
        }
        guard handleSignals else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { [weak self] in self?.stop() } }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Blocks until the loop quits.
    package func run() {
        g_main_loop_run(loop)
        g_main_loop_unref(loop)
    }

    /// Runs `onStop`, then quits.
    package func stop() {
        guard !stopping else { return }
        stopping = true
        let loop = self.loop
        Task { @MainActor in
            await onStop()
            g_main_loop_quit(loop)
        }
        // Whatever `onStop` waits for, a stop request ends the process.
        runAfter(ms: Self.stopLimitMilliseconds) { g_main_loop_quit(loop) }
    }

    /// Quits at once, without `onStop`.
    func quit() {
        g_main_loop_quit(loop)
    }

    /// For commands whose body is async (`host`, `observe`): runs `body` on
    /// the cooperative pool while the main thread runs the GLib loop, and
    /// returns its result. A drop-in for waiting on a semaphore, which would
    /// starve Avahi and the main actor. Signals are left to `body`.
    package nonisolated static func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try MainActor.assumeIsolated {
            let loop = HeadlessMainLoop(handleSignals: false)
            let outcome = Outcome<T>()
            Task.detached {
                let result: Result<T, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                await MainActor.run {
                    outcome.result = result
                    loop.quit()
                }
            }
            loop.run()
            return try outcome.result!.get()
        }
    }
}

@MainActor
private final class Outcome<T: Sendable> {
    var result: Result<T, any Error>?
}
