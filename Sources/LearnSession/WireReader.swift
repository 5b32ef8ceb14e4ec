import Foundation

/// Why a payload could not be read; FrameDecoder wraps it in
/// `FrameError.malformedPayload` together with the message type.
public struct PayloadError: Error, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Reads primitive fields from one frame's payload. Every read checks the
/// remaining bytes first, and every count is checked against what the
/// remaining bytes could possibly hold before anything is reserved, so a
/// hostile count costs nothing.
public struct WireReader {
    private let bytes: [UInt8]
    public private(set) var index: Int
    let end: Int

    public init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        index = start
        self.end = end
    }

    public init(_ bytes: [UInt8]) { self.init(bytes, from: 0, to: bytes.count) }

    public var remaining: Int { end - index }

    public mutating func u8() throws(PayloadError) -> UInt8 {
        guard index < end else { throw PayloadError("truncated field") }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func bool() throws(PayloadError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let b: throw PayloadError("bad boolean \(b)")
        }
    }

    public mutating func varint() throws(PayloadError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            // The 10th byte may only carry the 64th bit; anything more overflows.
            if shift == 63 && b > 1 { throw PayloadError("varint overflows 64 bits") }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    public mutating func varint<I: FixedWidthInteger>(as: I.Type, max: I = I.max) throws(PayloadError) -> I {
        let v = try varint()
        guard v <= UInt64(max) else { throw PayloadError("value \(v) exceeds \(max)") }
        return I(v)
    }

    public mutating func zigzag() throws(PayloadError) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    /// A count of elements that each take at least `minSize` bytes: a count the
    /// rest of the payload cannot hold is rejected before any allocation.
    public mutating func count(minElementSize: Int, max: Int = .max) throws(PayloadError) -> Int {
        let n = try varint()
        guard n <= UInt64(max) else { throw PayloadError("count \(n) exceeds \(max)") }
        guard n <= UInt64(remaining / Swift.max(1, minElementSize)) else {
            throw PayloadError("count \(n) exceeds the remaining \(remaining) bytes")
        }
        return Int(n)
    }

    public mutating func uuid() throws(PayloadError) -> UUID {
        guard remaining >= 16 else { throw PayloadError("truncated uuid") }
        let b = bytes
        let i = index
        index += 16
        return UUID(uuid: (b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7],
                           b[i + 8], b[i + 9], b[i + 10], b[i + 11], b[i + 12], b[i + 13], b[i + 14], b[i + 15]))
    }

    public mutating func rawBytes(_ n: Int) throws(PayloadError) -> [UInt8] {
        guard n >= 0, n <= remaining else { throw PayloadError("truncated bytes") }
        defer { index += n }
        return Array(bytes[index..<index + n])
    }

    public mutating func blob(max: Int) throws(PayloadError) -> [UInt8] {
        let n = try count(minElementSize: 1, max: max)
        return try rawBytes(n)
    }

    /// UTF-8 text; invalid UTF-8 is garbage, not something to repair.
    public mutating func string(maxBytes: Int) throws(PayloadError) -> String {
        let n = try count(minElementSize: 1, max: maxBytes)
        let s = bytes[index..<index + n]
        guard let text = String(validating: s, as: UTF8.self) else { throw PayloadError("invalid UTF-8") }
        index += n
        return text
    }
}
