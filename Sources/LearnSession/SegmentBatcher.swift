import Foundation
import LearnSketch

/// Collects the segments a stroke builder emits and releases them as batches,
/// about one per frame: ink travels while the pen still moves, yet the
/// network sees one message per frame rather than one per sample.
///
/// A token bucket sets the pace: a batch may go when a token is there; one
/// token comes back every `interval`, up to `burst`. A device that hands
/// over a frame's segments in one call, as the GTK canvas does at 60 Hz,
/// always finds a token, so batching adds no delay, even when its frames
/// arrive unevenly (a late frame and an early one). A caller that hands over
/// every pen sample is held to one batch per interval, its segments merged.
public struct SegmentBatcher: Sendable {
    public var interval: Duration
    public var burst: Int
    private var pending: [(id: UUID, segments: [CubicSegment])] = []
    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant?

    public init(interval: Duration = .milliseconds(12), burst: Int = 3) {
        self.interval = interval
        self.burst = max(1, burst)
        tokens = Double(self.burst)
    }

    public var isEmpty: Bool { pending.isEmpty }

    public mutating func add(_ segments: [CubicSegment], to id: UUID) {
        guard !segments.isEmpty else { return }
        if let last = pending.last, last.id == id {
            pending[pending.count - 1].segments += segments
        } else {
            pending.append((id, segments))
        }
    }

    /// When the pending batch may go: now (nil) or at the returned instant.
    public mutating func flushTime(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        refill(now)
        guard interval > .zero, tokens < 1 else { return nil }
        return now + interval * (1 - tokens)
    }

    /// Takes everything pending, spending a token.
    public mutating func take(now: ContinuousClock.Instant) -> [(id: UUID, segments: [CubicSegment])] {
        refill(now)
        let out = pending
        pending = []
        if !out.isEmpty { tokens = max(0, tokens - 1) }
        return out
    }

    /// A stroke ends: its last segments go at once, before its end, whatever
    /// the pace (ends are a few a second at most).
    public mutating func takeForEnd(of id: UUID) -> [CubicSegment] {
        let out = pending.filter { $0.id == id }.flatMap(\.segments)
        pending.removeAll { $0.id == id }
        return out
    }

    private mutating func refill(_ now: ContinuousClock.Instant) {
        defer { refilledAt = now }
        guard let refilledAt, interval > .zero else { return }
        tokens = min(Double(burst), tokens + (now - refilledAt) / interval)
    }
}
