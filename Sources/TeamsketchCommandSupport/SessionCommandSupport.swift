import ArgumentParser
import Dispatch
import Foundation
import LearnModel

/// Shared plumbing of `host`, `observe` and `bench-session`. The root command
/// is synchronous: they run their async body with `HeadlessMainLoop.runBlocking`,
/// a GLib loop on the main thread, because Avahi and the main actor need it.
package enum SessionCommandSupport {
    /// SIGINT and SIGTERM as a stream (and no longer fatal).
    package static func terminationSignals() -> AsyncStream<Int32> {
        AsyncStream { continuation in
            var sources: [any DispatchSourceSignal] = []
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { continuation.yield(sig) }
                source.resume()
                sources.append(source)
            }
            let keep = SignalSources(sources)
            continuation.onTermination = { _ in keep.cancel() }
        }
    }

    /// Session events as a stream, to be read in one loop with the signals.
    package static func eventStream() -> (AsyncStream<SessionEvent>, @Sendable (SessionEvent) -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        return (stream, { continuation.yield($0) })
    }

    /// A figure or status line on stdout, flushed at once (tests read it live).
    package static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// A diagnostic line on stderr.
    package static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Fails with a message and a specific exit status.
    package static func fail(_ message: String, status: Int32) -> ExitCode {
        note("Error: \(message)")
        return ExitCode(status)
    }

    /// The join code for a listener, when the address and port allow one.
    package static func joinCode(host: String, port: Int) -> String? {
        guard let ip = IPv4Address(host) else { return nil }
        return JoinCode(host: ip, port: port)?.digits
    }
}

/// Exit statuses of `host` and `observe` besides 0 (ok) and 1 (usage, I/O).
package enum SessionExitStatus {
    package static let unreachable: Int32 = 2
    package static let declined: Int32 = 3
    package static let protocolMismatch: Int32 = 4
}

private final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
