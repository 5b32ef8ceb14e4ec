import Foundation
import NIOConcurrencyHelpers

/// One push at a time per account (in each server process). The quota is
/// checked on what the account stored before a push; pushes sent side by
/// side would all pass on the same figures, so a second one waits its
/// turn at the device (429, a second) instead of slipping through. A
/// pupil's laptop pushes one batch after the other anyway.
final class PushesInFlight: Sendable {
    private let accounts = NIOLockedValueBox(Set<UUID>())

    /// Takes the account's turn; false when a push of it is under way.
    func begin(_ account: UUID) -> Bool {
        accounts.withLockedValue { $0.insert(account).inserted }
    }

    func end(_ account: UUID) {
        _ = accounts.withLockedValue { $0.remove(account) }
    }
}
