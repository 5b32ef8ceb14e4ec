import Foundation
import NIOConcurrencyHelpers

/// Rung each time a push stores changes, for the pulls that wait
/// (`wait=` on /sync/changes): each waiter wakes and asks the database
/// again whether something it may see came. Another server process on the
/// same database does not ring this one's bell: a waiter also asks again
/// every `recheck` seconds. Closed when the server stops, so no waiting
/// pull holds up a stop. Each waiter costs a query every few seconds, so
/// an account waits in at most `perAccount` pulls at once and the server
/// in at most `total`; a pull beyond is answered at once, as without `wait`.
final class ChangeBell: Sendable {
    static let recheck: Double = 3
    static let perAccount = 2
    static let total = 1000

    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        var closed = false
        var waiting: [UUID: Int] = [:]
        var waitingTotal = 0
    }
    private let state = NIOLockedValueBox(State())

    /// Wakes every waiter.
    func ring() {
        let woken = state.withLockedValue { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Wakes every waiter, now and later: the server is stopping.
    func close() {
        state.withLockedValue { $0.closed = true }
        ring()
    }

    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Lets the account wait, if it and the server are under their caps;
    /// `leave` when done.
    func enter(_ account: UUID) -> Bool {
        state.withLockedValue { state in
            guard !state.closed, state.waitingTotal < Self.total, state.waiting[account, default: 0] < Self.perAccount
            else { return false }
            state.waiting[account, default: 0] += 1
            state.waitingTotal += 1
            return true
        }
    }

    func leave(_ account: UUID) {
        state.withLockedValue { state in
            state.waiting[account, default: 1] -= 1
            if state.waiting[account] == 0 { state.waiting[account] = nil }
            state.waitingTotal -= 1
        }
    }

    /// Returns at the next ring, after `seconds`, or at once when closed or
    /// the task is cancelled.
    func wait(seconds: Double) async {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int64(max(0, seconds) * 1000)))
            wake(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.closed || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
        timer.cancel()
    }

    private func wake(_ id: UUID) {
        state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
