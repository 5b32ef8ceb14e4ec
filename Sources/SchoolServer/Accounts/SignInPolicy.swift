/// When failed sign-ins stop further tries for a while, per account and per
/// address. A three-picture password has only 729 choices: at 5 tries per
/// quarter hour guessing one takes days of trying, in which the teacher
/// notices (and resets the pictures). Pure: the caller counts failures in
/// the database, where every server process sees the same numbers.
public struct SignInPolicy: Sendable, Hashable {
    /// Failures an account may have within `window` before it waits.
    public var perAccount: Int = 5
    /// Failures from one address (a whole classroom behind one NAT may
    /// share it, so this is higher) within `window`.
    public var perAddress: Int = 30
    /// Milliseconds over which failures count.
    public var window: Int64 = 15 * 60 * 1000

    public init() {}

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Seconds until the oldest counted failure leaves the window.
        case wait(seconds: Int)
    }

    /// `accountFailures` and `addressFailures`: times (Unix ms) of failures
    /// within the window, any order.
    public func decide(accountFailures: [Int64], addressFailures: [Int64], now: Int64) -> Decision {
        func wait(_ times: [Int64], limit: Int) -> Int? {
            guard times.count >= limit, limit > 0 else { return nil }
            // The try is allowed again once enough failures have aged out.
            let sorted = times.sorted()
            let freeing = sorted[times.count - limit]
            let ms = max(0, freeing + window - now)
            return max(1, Int((ms + 999) / 1000))
        }
        let waits = [wait(accountFailures, limit: perAccount), wait(addressFailures, limit: perAddress)].compactMap { $0 }
        guard let longest = waits.max() else { return .allowed }
        return .wait(seconds: longest)
    }
}
