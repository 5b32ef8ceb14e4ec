import Foundation
import LearnModel

/// Generates RFC 9562 version 7 UUIDs: a 48-bit Unix millisecond timestamp,
/// then a 12-bit counter, then random bits.
///
/// The outbox is pushed in id order, so ids must grow strictly within a
/// process even when many are made in one millisecond or the wall clock steps
/// back; the counter (RFC 9562 §6.2, method 1) and never letting the timestamp
/// go backwards guarantee that. A lock rather than `Mutex` keeps macOS 13
/// builds possible.
public final class UUIDv7Generator: @unchecked Sendable {
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var lastMilliseconds: UInt64 = 0
    private var counter: UInt16 = 0

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public static let shared = UUIDv7Generator()

    public func next() -> UUID {
        // Rounded like every stored date, so an id's time equals its row's `createdAt`.
        let wall = UInt64(max(0, StoreTime.milliseconds(now())))
        var random = SystemRandomNumberGenerator()
        let (ms, count): (UInt64, UInt16) = lock.withLock {
            if wall > lastMilliseconds {
                lastMilliseconds = wall
                // Leftmost bit clear leaves at least 2048 increments per ms.
                counter = UInt16.random(in: 0..<0x800, using: &random)
            } else if counter < 0xFFF {
                counter += 1
            } else {
                // Counter exhausted: borrow the next millisecond.
                lastMilliseconds += 1
                counter = UInt16.random(in: 0..<0x800, using: &random)
            }
            return (lastMilliseconds, counter)
        }
        let tail = random.next() as UInt64
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: ms >> 40), UInt8(truncatingIfNeeded: ms >> 32),
            UInt8(truncatingIfNeeded: ms >> 24), UInt8(truncatingIfNeeded: ms >> 16),
            UInt8(truncatingIfNeeded: ms >> 8), UInt8(truncatingIfNeeded: ms),
            0x70 | UInt8(count >> 8), UInt8(truncatingIfNeeded: count),
            0x80 | (UInt8(truncatingIfNeeded: tail >> 56) & 0x3F), UInt8(truncatingIfNeeded: tail >> 48),
            UInt8(truncatingIfNeeded: tail >> 40), UInt8(truncatingIfNeeded: tail >> 32),
            UInt8(truncatingIfNeeded: tail >> 24), UInt8(truncatingIfNeeded: tail >> 16),
            UInt8(truncatingIfNeeded: tail >> 8), UInt8(truncatingIfNeeded: tail)
        ))
    }

    /// The creation time embedded in a version 7 UUID, or nil for other versions.
    public static func timestamp(of id: UUID) -> Date? {
        let b = id.uuid
        guard b.6 >> 4 == 7, b.8 >> 6 == 0b10 else { return nil }
        let ms = [b.0, b.1, b.2, b.3, b.4, b.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return StoreTime.date(Int64(ms))
    }
}
