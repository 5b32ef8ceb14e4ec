import NIOConcurrencyHelpers

/// A piece of work this server process does once at a time: a pupil's
/// export holds their whole year in memory while it is made, so a second
/// one (a double click, the gallery beside the window) waits its turn at
/// the caller instead of doubling that.
final class OneAtATime: Sendable {
    private let busy = NIOLockedValueBox(false)

    /// Takes the turn; false when it is taken.
    func begin() -> Bool {
        busy.withLockedValue { taken in
            if taken { return false }
            taken = true
            return true
        }
    }

    func end() { busy.withLockedValue { $0 = false } }
}
