import Foundation

/// Collects the segments a stroke builder emits and releases them at most
/// once per frame interval (SPEC §4: streamed while the pen moves, batched
/// per frame). The first batch after a pause goes at once (leading edge), so
/// a device that hands over a frame's segments in one call, as the GTK
/// canvas does, adds no delay; faster callers are coalesced into one batch
/// per interval.
public struct SegmentBatcher: Sendable {
    public var interval: Duration
    private var pending: [(id: UUID, segments: [CubicSegment])] = []
    private var lastFlush: ContinuousClock.Instant?

    public init(interval: Duration = .milliseconds(12)) { self.interval = interval }

    public var isEmpty: Bool { pending.isEmpty }

    public mutating func add(_ segments: [CubicSegment], to id: UUID) {
        guard !segments.isEmpty else { return }
        if let i = pending.lastIndex(where: { $0.id == id }), i == pending.count - 1 {
            pending[i].segments += segments
        } else {
            pending.append((id, segments))
        }
    }

    /// When the pending batch may go: now (nil) or at the returned instant.
    public func flushTime(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let lastFlush, now < lastFlush + interval else { return nil }
        return lastFlush + interval
    }

    /// Takes everything pending (for one stroke only, if `id` is given: a
    /// stroke's end must follow its last segments at once).
    public mutating func take(now: ContinuousClock.Instant, only id: UUID? = nil) -> [(id: UUID, segments: [CubicSegment])] {
        let out: [(id: UUID, segments: [CubicSegment])]
        if let id {
            out = pending.filter { $0.id == id }
            pending.removeAll { $0.id == id }
        } else {
            out = pending
            pending = []
        }
        if !out.isEmpty { lastFlush = now }
        return out
    }
}
