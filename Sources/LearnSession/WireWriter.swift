import Foundation

/// Appends the protocol's primitive fields to a byte array (docs/PROTOCOL.md
/// "Primitive fields"). Encoding never fails: every value the model can hold
/// has a wire form, and limits are enforced where values enter the session.
public struct WireWriter {
    public var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }

    public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    public mutating func u32BigEndian(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 24))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Unsigned LEB128: 7 bits a byte, low bits first, high bit = more follows.
    public mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func varint<I: BinaryInteger>(_ v: I) { varint(UInt64(v)) }

    /// Zigzag maps small negative and positive numbers to small unsigned ones
    /// (0, -1, 1, -2 … → 0, 1, 2, 3 …) so deltas stay one or two bytes.
    public mutating func zigzag(_ v: Int64) {
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    public mutating func uuid(_ u: UUID) {
        withUnsafeBytes(of: u.uuid) { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func blob(_ b: [UInt8]) {
        varint(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    public mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
}
