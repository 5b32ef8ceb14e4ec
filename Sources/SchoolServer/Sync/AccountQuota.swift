/// What one account may cost the server. A pupil's script (or a laptop
/// gone wrong) that pushes without end fills the disk every class shares;
/// a pupil drawing all day, even the keenest, stays far under these.
/// Checked before a push is stored, on what the account had stored
/// before it, one push per account at a time (`PushesInFlight`), so an
/// account passes a limit by at most one push (500 changes, 8 MiB) in
/// each server process; past one, its device keeps its changes and sends
/// them when the limit allows: a daily one the next day, the sketches once
/// some are deleted. What is stored in all only grows (the log keeps
/// every change, deleted sketches' too), so only the server's
/// administrator lifts that one (`--quota-mib-in-all`).
/// Pure: `SyncStore.usage` reads the figures.
public struct AccountQuota: Sendable, Hashable {
    public var bytesPerDay: Int64 = 32 << 20
    public var changesPerDay: Int64 = 20_000
    public var bytesInAll: Int64 = 1 << 30
    public var changesInAll: Int64 = 1_000_000
    /// Sketches the account started that are not deleted.
    public var sketches: Int64 = 2_000

    public init() {}

    /// Which limit was reached; the names are the API's.
    public enum Limit: String, Sendable, CaseIterable {
        case bytesToday, changesToday, bytesInAll, changesInAll, sketches

        /// Reached for today only: tomorrow the device may send again.
        public var isDaily: Bool { self == .bytesToday || self == .changesToday }
    }

    /// What an account has stored: payload bytes and changes today (the
    /// server's day, UTC) and in all, and its sketches.
    public struct Usage: Sendable, Hashable {
        public var bytesToday: Int64 = 0
        public var changesToday: Int64 = 0
        public var bytesInAll: Int64 = 0
        public var changesInAll: Int64 = 0
        public var sketches: Int64 = 0

        public init(bytesToday: Int64 = 0, changesToday: Int64 = 0, bytesInAll: Int64 = 0, changesInAll: Int64 = 0,
                    sketches: Int64 = 0) {
            self.bytesToday = bytesToday; self.changesToday = changesToday
            self.bytesInAll = bytesInAll; self.changesInAll = changesInAll; self.sketches = sketches
        }
    }

    /// The first limit `usage` has reached, or nil. The sketch limit counts
    /// only for a push that starts a sketch: a push into the ones there are
    /// goes on (though a device sends its outbox in order, so what it
    /// queued after a new sketch waits behind it).
    public func reached(_ usage: Usage, startsSketch: Bool) -> Limit? {
        if usage.bytesInAll >= bytesInAll { return .bytesInAll }
        if usage.changesInAll >= changesInAll { return .changesInAll }
        if startsSketch, usage.sketches >= sketches { return .sketches }
        if usage.bytesToday >= bytesPerDay { return .bytesToday }
        if usage.changesToday >= changesPerDay { return .changesToday }
        return nil
    }

    public func value(of limit: Limit) -> Int64 {
        switch limit {
        case .bytesToday: bytesPerDay
        case .changesToday: changesPerDay
        case .bytesInAll: bytesInAll
        case .changesInAll: changesInAll
        case .sketches: sketches
        }
    }

    static let dayMilliseconds: Int64 = 86_400_000

    /// The server's day of a time (Unix ms): days since 1970, in UTC.
    public static func day(of time: Int64) -> Int64 {
        time >= 0 ? time / dayMilliseconds : (time + 1) / dayMilliseconds - 1
    }

    /// Seconds from `time` until the next day starts (at least 1).
    public static func secondsToNextDay(from time: Int64) -> Int {
        let next = (day(of: time) + 1) * dayMilliseconds
        return Int(max(1, (next - time + 999) / 1000))
    }

    /// How long a device waits before trying again after reaching `limit`:
    /// a daily one frees at midnight; the others only when someone makes
    /// room, so an hour.
    public static func retryAfter(_ limit: Limit, now: Int64) -> Int {
        limit.isDaily ? secondsToNextDay(from: now) : 3600
    }
}
