import Foundation

/// How long to wait before trying an unreachable server again: doubling
/// from two seconds to five minutes, each wait shortened by a random part
/// of up to half, so thirty laptops that lost the server together do not
/// all come back in the same second.
public struct SyncBackoff: Sendable, Equatable {
    public var first: Double = 2
    public var longest: Double = 300

    public init(first: Double = 2, longest: Double = 300) {
        self.first = first
        self.longest = longest
    }

    /// Seconds before try number `failures + 1`; `random` is in 0..<1.
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        let exponent = Double(min(max(failures - 1, 0), 30))
        let full = min(first * pow(2, exponent), longest)
        // A random number that is none (NaN) counts as no shortening.
        let part = random.isFinite ? min(max(random, 0), 1) : 0
        return full * (1 - 0.5 * part)
    }
}
