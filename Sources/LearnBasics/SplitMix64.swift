import Foundation

/// Small seeded generator (SplitMix64): the same seed gives the same numbers
/// on every machine and Swift version, which the system generator does not
/// promise. Used for generated sketches in tests and benchmarks.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1 from the top 53 bits. `Double.random(in:using:)` would
    /// do too, but its algorithm is not promised to stay the same.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    public mutating func nextDouble(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }

    /// Uniform in 0..<n (n > 0); the modulo bias is negligible for small n.
    public mutating func nextInt(below n: Int) -> Int {
        precondition(n > 0)
        return Int(next() % UInt64(n))
    }
}

/// Version-4 UUIDs in bulk. Foundation's UUID() reads the system random
/// source on every call (about 4 µs each on Linux), which alone would eat a
/// fifth of the import budget for 5,000 strokes. Two generators seeded from
/// the system source give 128 bits of seed per batch, plenty for stroke ids.
public struct UUIDSource: Sendable {
    private var high: SplitMix64
    private var low: SplitMix64

    /// Seeded from the system's random source: unpredictable ids.
    public init() {
        var system = SystemRandomNumberGenerator()
        high = SplitMix64(seed: system.next())
        low = SplitMix64(seed: system.next())
    }

    /// Reproducible ids, for generated test and benchmark data.
    public init(seed: UInt64) {
        high = SplitMix64(seed: seed)
        low = SplitMix64(seed: ~seed)
    }

    public mutating func next() -> UUID {
        UUID.version4(high: high.next(), low: low.next())
    }
}

extension UUID {
    /// A version-4 (random) UUID from 128 random bits; 6 of them become the
    /// version and variant marks.
    package static func version4(high a: UInt64, low b: UInt64) -> UUID {
        func byte(_ v: UInt64, _ k: Int) -> UInt8 { UInt8(truncatingIfNeeded: v >> UInt64(56 - 8 * k)) }
        return UUID(uuid: (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5),
                           (byte(a, 6) & 0x0F) | 0x40, byte(a, 7),
                           (byte(b, 0) & 0x3F) | 0x80, byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5),
                           byte(b, 6), byte(b, 7)))
    }
}
