import Foundation

/// Dates as integer Unix milliseconds, the precision of every stored and
/// synced date.
public enum UnixMilliseconds {
    public static func milliseconds(_ date: Date) -> Int64 {
        // Files are checked against `SketchLimits.dates` before their dates
        // get here; a date from a peer or built in memory that is still
        // absurd (or NaN) is pinned to what Int64 milliseconds hold rather
        // than trapping.
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard ms.isFinite else { return 0 }
        return Int64(min(max(ms, -limit), limit))
    }

    /// About 146 million years either side of 1970: far inside Int64.
    private static let limit = Double(1 << 62)

    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
