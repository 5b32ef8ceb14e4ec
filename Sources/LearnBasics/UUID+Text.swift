import Foundation

/// The text form of an id as stored and sent: 8-4-4-4-12 hex digits,
/// lowercase. Written and read by hand because Foundation's goes through
/// `snprintf` and `sscanf`: a tenth of the school server's time while it
/// stored a push of 500 strokes, where every id is read and written
/// several times.
extension UUID {
    /// Lowercase text, the way every id is stored and sent.
    public var lowercasedText: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    let byte = raw[index]
                    out[at] = digits.utf8Start[Int(byte >> 4)]
                    out[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    /// An id from its text in either case; nil for anything but exactly
    /// 36 characters with the four dashes in place and hex digits between.
    public init?(text: String) {
        var string = text
        guard let parsed = string.withUTF8(Self.parse) else { return nil }
        self.init(uuid: parsed)
    }

    public init?(text: Substring) {
        self.init(text: String(text))
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        guard bytes.count == 36 else { return nil }
        var out: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &out) { target -> Bool in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard bytes[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = hexValue(bytes[at]), let low = hexValue(bytes[at + 1]) else { return false }
                target[index] = high << 4 | low
                at += 2
            }
            return true
        }
        return ok ? out : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
