import Foundation
import NIOConcurrencyHelpers

/// Rung each time a push stores changes, for the pulls that wait
/// (`wait=` on /sync/changes): each waiter wakes and asks the database
/// again whether something it may see came. Another server process on the
/// same database does not ring this one's bell: a waiter also asks again
/// every `recheck` seconds. Closed when the server stops, so no waiting
/// pull holds up a stop.
///
/// A waiter asks at most once every `minimumGap` seconds however often a
/// busy school rings, an account waits in at most `perAccount` pulls at
/// once and the server in at most `total` (fewer than the connections it
/// takes); a pull beyond is answered at once, as without `wait`.
final class ChangeBell: Sendable {
    static let recheck: Double = 3
    static let minimumGap: Double = 1
    static let perAccount = 2
    static let total = 500

    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        var closed = false
        /// How often it rang: a waiter that read it before asking the
        /// database and finds it moved has missed a ring, and asks again.
        var rung: UInt64 = 0
        var waiting: [UUID: Int] = [:]
        var waitingTotal = 0
    }
    private let state = NIOLockedValueBox(State())

    var generation: UInt64 { state.withLockedValue { $0.rung } }
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Wakes every waiter.
    func ring() {
        let woken = state.withLockedValue { state in
            state.rung &+= 1
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

    /// Returns at the first ring after `generation` (at once if there was
    /// one since), after `seconds`, or at once when closed or cancelled.
    func wait(seconds: Double, after generation: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state -> Bool in
                    if state.closed || state.rung != generation || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now {
                    continuation.resume()
                    return
                }
                // Started once the waiter is in the list, so it cannot
                // fire before there is someone to wake.
                Task { [self] in
                    try? await Task.sleep(for: .milliseconds(Int64(max(0, seconds) * 1000)))
                    wake(id)
                }
            }
        } onCancel: {
            wake(id)
        }
    }

    private func wake(_ id: UUID) {
        state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
