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
enum StoreTime {
    static func milliseconds(_ date: Date) -> Int64 {
        // Files are checked against `SketchLimits.dates` before their dates
        // get here; a date from a peer or built in memory that is still
        // absurd (or NaN) is pinned to what Int64 milliseconds hold rather
        // than trapping.
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard ms.isFinite else { return 0 }
        return Int64(min(max(ms, -Self.limit), Self.limit))
    }

    /// About 146 million years either side of 1970: far inside Int64.
    private static let limit = Double(1 << 62)

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
