/// A token bucket: up to `capacity` actions at once, then `perSecond` on
/// average. Time is handed in (monotonic nanoseconds), so the bucket stays
/// pure and tests need no clock.
public struct TokenBucket: Hashable, Sendable {
    public let capacity: Double
    public let perSecond: Double
    private var tokens: Double
    private var last: UInt64?

    /// Starts full, so a burst right at the start passes.
    public init(capacity: Int, perSecond: Double) {
        self.capacity = Double(max(1, capacity))
        self.perSecond = max(0, perSecond)
        tokens = self.capacity
    }

    /// Takes a token if there is one. A clock that goes back adds nothing.
    public mutating func take(atNanoseconds now: UInt64) -> Bool {
        if let last, now > last {
            tokens = min(capacity, tokens + Double(now - last) / 1e9 * perSecond)
        }
        last = max(last ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
