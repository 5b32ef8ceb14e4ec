import Foundation
import LearnModel

/// Where the store reads the current time, so tests can control the order of
/// `modifiedAt` and outbox ids instead of racing the wall clock.
public struct StoreClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = StoreClock(now: { Date() })
}

/// Dates are stored as integer Unix milliseconds: language-neutral for the
/// sync server and sortable in SQL. Rounding (not GRDB's flooring) makes a
/// date that is already on a millisecond survive the round trip bit for bit.
typealias StoreTime = UnixMilliseconds
