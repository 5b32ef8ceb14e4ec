import Foundation
import LearnModel
import NIOCore

/// The local pen's segments, batched on the session's event loop: held while
/// `SegmentBatcher` says wait, then handed to `deliver` at once or by one
/// scheduled flush. The host and a member send their own strokes alike.
///
/// Confined to `loop` like the cores that own it, hence `@unchecked Sendable`.
final class LoopSegmentBatcher: @unchecked Sendable {
    private var batcher: SegmentBatcher
    private var flushScheduled = false
    private let loop: any EventLoop
    /// Set by the owning core; takes a batch into the session.
    var deliver: (_ id: UUID, _ segments: [CubicSegment]) -> Void = { _, _ in }

    init(loop: any EventLoop, interval: Duration) {
        self.loop = loop
        batcher = SegmentBatcher(interval: interval)
    }

    func add(_ segments: [CubicSegment], to id: UUID) {
        loop.preconditionInEventLoop()
        batcher.add(segments, to: id)
        scheduleFlush()
    }

    /// What is still held for a stroke that ends now; it goes out before the end.
    func takeForEnd(of id: UUID) -> [CubicSegment] {
        loop.preconditionInEventLoop()
        return batcher.takeForEnd(of: id)
    }

    private func scheduleFlush() {
        guard !flushScheduled, !batcher.isEmpty else { return }
        let now = ContinuousClock.now
        guard let at = batcher.flushTime(now: now) else { return flush() }
        flushScheduled = true
        loop.scheduleTask(in: (at - now).timeAmount) {
            self.flushScheduled = false
            self.flush()
        }
    }

    private func flush() {
        for batch in batcher.take(now: .now) { deliver(batch.id, batch.segments) }
    }
}
