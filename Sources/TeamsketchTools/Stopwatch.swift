import Foundation

/// Wall-clock timing for the in-process benchmarks (never used by tests).
enum Stopwatch {
    /// Seconds one call of `body` takes.
    static func seconds<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Median of `runs` timings after one untimed warm-up call.
    static func median<E: Error>(runs: Int, _ body: () throws(E) -> Void) throws(E) -> Double {
        try body()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<max(1, runs) { samples.append(try seconds(body)) }
        return median(of: samples)
    }

    /// CPU seconds this process has used so far, on all threads.
    static func processCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    static func median(of samples: [Double]) -> Double {
        let s = samples.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
