import Dispatch
import Foundation
import LearnModel

/// When each segment left its builder, and how long it took to be applied
/// on every other device.
final class LatencyRecorder: @unchecked Sendable {
    private struct Key: Hashable {
        var stroke: UUID
        var index: Int
    }

    private let lock = NSLock()
    private var sentAt: [Key: UInt64] = [:]
    private var samples: [Double] = []

    func sent(_ stroke: UUID, from first: Int, count: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            for i in first..<first + count { sentAt[Key(stroke: stroke, index: i)] = now }
        }
    }

    /// A device applied someone else's segments: how long since they left.
    func received(_ event: SessionEvent) {
        guard case .strokeExtended(let id, _, let first, let segments, false) = event else { return }
        arrived(id, from: first, count: segments.count)
    }

    /// These segments are on the screen (or applied) now.
    func arrived(_ stroke: UUID, from first: Int, count: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            for i in first..<first + count {
                if let t0 = sentAt[Key(stroke: stroke, index: i)] { samples.append(Double(now &- t0) / 1e9) }
            }
        }
    }

    var latencies: [Double] { lock.withLock { samples } }
}
