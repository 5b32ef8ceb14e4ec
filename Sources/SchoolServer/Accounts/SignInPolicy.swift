/// When failed sign-ins stop further tries for a while. A three-picture
/// password has only 729 choices, so tries are limited; but a classmate's
/// wrong tries must not lock a pupil out of her own laptop. So failures
/// count per device (account and address together), per address (any
/// account), and per account from every address but the ones it signed in
/// from before (its usual devices, which only their own failures stop).
/// At 10 tries a quarter hour from strangers' devices, guessing pictures
/// takes most of a day, in which the teacher notices. Pure: the caller
/// counts (`SignInThrottle`).
public struct SignInPolicy: Sendable, Hashable {
    /// Failures one device may have for one account within `window`.
    public var perDevice: Int = 5
    /// Failures for one account from devices it never signed in from.
    public var perAccount: Int = 10
    /// Failures from one address for any accounts (a whole classroom behind
    /// one NAT may share it, so this is higher) within `window`.
    public var perAddress: Int = 30
    /// Milliseconds over which failures count.
    public var window: Int64 = 15 * 60 * 1000

    public init() {}

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Seconds until the oldest counted failure leaves the window.
        case wait(seconds: Int)
    }

    /// Times (Unix ms) of failures within the window, any order: of this
    /// account from this device, of this account from devices that are not
    /// its usual ones, and from this address. `usual`: the device is one
    /// the account signed in from before.
    public func decide(device: [Int64], account: [Int64], address: [Int64], usual: Bool, now: Int64) -> Decision {
        func wait(_ times: [Int64], limit: Int) -> Int? {
            guard times.count >= limit, limit > 0 else { return nil }
            // The try is allowed again once enough failures have aged out.
            let sorted = times.sorted()
            let freeing = sorted[times.count - limit]
            let ms = max(0, freeing + window - now)
            return max(1, Int((ms + 999) / 1000))
        }
        var waits = [wait(device, limit: perDevice), wait(address, limit: perAddress)]
        if !usual { waits.append(wait(account, limit: perAccount)) }
        guard let longest = waits.compactMap({ $0 }).max() else { return .allowed }
        return .wait(seconds: longest)
    }
}
