import Foundation
import NIOConcurrencyHelpers

/// Counts failed sign-ins in memory, for `SignInPolicy`: nothing is written
/// per try, so a script that guesses costs no disk and a full disk stops
/// no sign-in. Each server process counts its own tries (several behind
/// one address allow as many times the tries). A try is counted as a
/// failure when it is let through and forgotten when it succeeds, all
/// under one lock, so tries sent at the same moment count against each
/// other.
final class SignInThrottle: Sendable {
    private let policy: SignInPolicy
    private let state = NIOLockedValueBox(State())

    private struct State {
        /// Failure times by account key, then by address.
        var devices: [String: [String: [Int64]]] = [:]
        /// By account key, from addresses that are not its usual ones.
        var accounts: [String: [Int64]] = [:]
        var addresses: [String: [Int64]] = [:]
        /// Failed tries by account key on one day (the server's, UTC), for
        /// the teacher's list of the class: a pupil whose pictures someone
        /// keeps guessing is one the teacher should hear of.
        var failedOnDay: [String: (day: Int64, count: Int)] = [:]
        var tries = 0

        /// The account's failed tries on the day of `time`.
        func failures(of accountKey: String, at time: Int64) -> Int {
            failedOnDay[accountKey].flatMap { $0.day == AccountQuota.day(of: time) ? $0.count : nil } ?? 0
        }
    }

    /// Keys held at most, each way, once the old failures are gone; beyond,
    /// the half failed longest ago is forgotten.
    static let maxKeys = 50_000

    init(policy: SignInPolicy) { self.policy = policy }

    /// Lets a try through (counting it as a failure until `succeeded`), or
    /// says how long to wait.
    /// `device`: the device's mark, or its address when it sends none.
    func begin(accountKey: String, device deviceKey: String, address: String, usual: Bool, now: Int64) -> SignInPolicy.Decision {
        let since = now - policy.window
        return state.withLockedValue { s in
            s.tries += 1
            if s.tries % 1000 == 0 { Self.prune(&s, since: since) }
            let device = (s.devices[accountKey]?[deviceKey] ?? []).filter { $0 > since }
            let account = (s.accounts[accountKey] ?? []).filter { $0 > since }
            let fromAddress = (s.addresses[address] ?? []).filter { $0 > since }
            let decision = policy.decide(device: device, account: account, address: fromAddress, usual: usual, now: now)
            // A try refused unchecked was wrong as far as anyone knows.
            let today = AccountQuota.day(of: now)
            s.failedOnDay[accountKey] = (today, s.failures(of: accountKey, at: now) + 1)
            guard decision == .allowed else { return decision }
            // Only as many as a decision reads are kept.
            s.devices[accountKey, default: [:]][deviceKey] = Array((device + [now]).suffix(policy.perDevice))
            if !usual { s.accounts[accountKey] = Array((account + [now]).suffix(policy.perAccount)) }
            s.addresses[address] = Array((fromAddress + [now]).suffix(policy.perAddress))
            return decision
        }
    }

    /// The right password or pictures for the try `begin` let through at
    /// `at`: this device's failures for the account are forgotten, and this
    /// try is no failure of the address. What other devices tried stays:
    /// the pupil signing in on her laptop must not give a classmate
    /// guessing elsewhere a fresh count.
    /// `usual` as `begin` was told: only then was the try not counted
    /// against the account, and nothing of the account's count is taken
    /// back (a failure of another device at the same millisecond stays).
    func succeeded(accountKey: String, device deviceKey: String, address: String, usual: Bool, at: Int64) {
        state.withLockedValue { s in
            s.devices[accountKey]?[deviceKey] = nil
            if !usual, let i = s.accounts[accountKey]?.lastIndex(of: at) { s.accounts[accountKey]?.remove(at: i) }
            if let i = s.addresses[address]?.lastIndex(of: at) { s.addresses[address]?.remove(at: i) }
            let failed = s.failures(of: accountKey, at: at)
            if failed > 0 { s.failedOnDay[accountKey] = failed > 1 ? (AccountQuota.day(of: at), failed - 1) : nil }
        }
    }

    /// Wrong tries for the account on the day of `now`.
    func failures(accountKey: String, now: Int64) -> Int {
        state.withLockedValue { s in
            s.failures(of: accountKey, at: now)
        }
    }

    private static func prune(_ s: inout State, since: Int64) {
        s.devices = s.devices.compactMapValues { byAddress in
            let kept = byAddress.filter { $0.value.last.map { $0 > since } ?? false }
            return kept.isEmpty ? nil : kept
        }
        s.accounts = s.accounts.filter { $0.value.last.map { $0 > since } ?? false }
        s.addresses = s.addresses.filter { $0.value.last.map { $0 > since } ?? false }
        let today = AccountQuota.day(of: since + 1)
        s.failedOnDay = s.failedOnDay.filter { $0.value.day >= today }
        if s.failedOnDay.count > maxKeys {
            // Most tries first: the accounts someone keeps guessing stay.
            s.failedOnDay = Dictionary(uniqueKeysWithValues: s.failedOnDay.sorted { $0.value.count > $1.value.count }
                .prefix(maxKeys / 2).map { ($0.key, $0.value) })
        }
        // Each address may fail 30 times a window, so only very many
        // addresses fill this; then the keys failed longest ago go first
        // (a flood of new names must not wipe a guessed account's count).
        func newest<V>(_ d: [String: V], _ last: (V) -> Int64) -> [String: V] {
            guard d.count > maxKeys else { return d }
            return Dictionary(uniqueKeysWithValues: d.sorted { last($0.value) > last($1.value) }.prefix(maxKeys / 2)
                .map { ($0.key, $0.value) })
        }
        s.devices = newest(s.devices) { $0.values.compactMap(\.last).max() ?? 0 }
        s.accounts = newest(s.accounts) { $0.last ?? 0 }
        s.addresses = newest(s.addresses) { $0.last ?? 0 }
    }
}
