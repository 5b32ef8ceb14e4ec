import Foundation
import LearnModel

/// A hand-like pen path: smooth loops over the canvas at ~2.5 units a
/// sample, with a little tremor.
package struct PenPath {
    private var rng: SplitMix64
    private var t: Double
    private let phase: Double

    package init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        t = 0
        phase = Double(seed)
    }

    package mutating func next() -> Point {
        t += 0.004
        let x = 800 + 600 * sin(t * 1.3 + phase) + 80 * sin(t * 7.1)
        let y = 500 + 380 * sin(t * 1.7 + phase * 0.7) + 60 * cos(t * 5.3)
        return Point(x + rng.nextDouble(in: -0.3...0.3), y + rng.nextDouble(in: -0.3...0.3))
    }
}
