import Foundation
import Testing

/// Names what a test is waiting for, so that a test that never finishes
/// says where it stopped instead of holding the whole run until CI's time
/// runs out. A wait with no timer of its own (a server that never reports
/// it started, a pool that never finishes closing) leaves no other trace:
/// no thread is busy and no socket is open.
///
/// A phase still open after `warnAfter` is printed once; when any phase
/// has been open for `giveUpAfter`, every open phase is printed and the
/// test process ends with status 3, so `make test` fails within minutes,
/// saying which test and phase hung.
public final class Watchdog: @unchecked Sendable {
    public static let shared = Watchdog()

    static let warnAfter: TimeInterval = 90
    static let giveUpAfter: TimeInterval = 420

    private struct Phase {
        var what: String
        var since: Date
        var warned = false
    }

    private let lock = NSLock()
    private var phases: [UUID: Phase] = [:]
    private var watching = false

    /// One test's current phase; `enter` replaces it, `leave` ends it.
    public final class Tracker: @unchecked Sendable {
        private let id = UUID()
        private let owner: String

        init(owner: String) { self.owner = owner }

        public func enter(_ phase: String) { Watchdog.shared.set(id, "\(owner): \(phase)") }
        public func leave() { Watchdog.shared.clear(id) }
        deinit { Watchdog.shared.clear(id) }
    }

    /// A tracker named for the running test (and `detail`, e.g. a backend).
    public static func tracker(_ detail: String = "") -> Tracker {
        let test = Test.current?.name ?? "a test"
        return Tracker(owner: detail.isEmpty ? test : "\(test) [\(detail)]")
    }

    private func set(_ id: UUID, _ what: String) {
        lock.withLock {
            phases[id] = Phase(what: what, since: Date())
            if !watching {
                watching = true
                Thread.detachNewThread { [self] in watch() }
            }
        }
    }

    private func clear(_ id: UUID) {
        _ = lock.withLock { phases.removeValue(forKey: id) }
    }

    /// Runs on a thread of its own, so a starved or stuck cooperative pool
    /// cannot keep it from speaking.
    private func watch() {
        while true {
            Thread.sleep(forTimeInterval: 5)
            let now = Date()
            var report: [String] = []
            var giveUp = false
            lock.withLock {
                for (id, phase) in phases {
                    let age = now.timeIntervalSince(phase.since)
                    if age > Self.giveUpAfter { giveUp = true }
                    if age > Self.warnAfter, !phase.warned {
                        phases[id]?.warned = true
                        report.append("watchdog: still waiting after \(Int(age)) s in \(phase.what)")
                    }
                }
                if giveUp {
                    report = phases.values.sorted { $0.since < $1.since }.map {
                        "watchdog: open for \(Int(now.timeIntervalSince($0.since))) s: \($0.what)"
                    }
                }
            }
            for line in report { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            if giveUp {
                FileHandle.standardError.write(Data("watchdog: a test hung; ending the test run\n".utf8))
                exit(3)
            }
        }
    }
}
