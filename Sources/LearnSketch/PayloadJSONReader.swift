import Foundation

/// Reads the JSON of one op payload (`SketchOpPayload`) straight from its
/// bytes.
///
/// Every device decodes every op it pulls or opens, and the school server
/// every op pushed to it: through `JSONDecoder` that was most of the cost
/// of a sync (a stroke is a few hundred numbers, each one a trip through
/// `Codable`'s containers). This reader walks the bytes once, keeps where
/// the values of a few known keys start, and reads those on demand.
///
/// It is strict JSON (RFC 8259) and linear in its input: nesting deeper
/// than `maxDepth` is refused rather than followed, so hostile bytes cost
/// one pass and a bounded stack. Numbers are read in the C locale whatever
/// the process's locale (`strtod` in German would stop at the point of
/// "0.5").
struct PayloadJSONReader {
    /// As deep as `JSONDecoder` went, so every payload it read is read.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The offsets where the values of `keys` start in a top-level object,
    /// the last one written when a key repeats; nil when the bytes are not
    /// one JSON object (with nothing but white space after it).
    mutating func topLevelValues(of keys: [String]) -> [String: Int]? {
        var found: [String: Int] = [:]
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            while true {
                guard let key = readString() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                if keys.contains(key) { found[key] = at }
                guard skipValue(depth: 1) else { return nil }
                skipSpace()
                if take(UInt8(ascii: ",")) { skipSpace(); continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipSpace()
        return at == bytes.count ? found : nil
    }

    // MARK: values at an offset (from `topLevelValues`)

    mutating func string(at offset: Int) -> String? {
        at = offset
        return readString()
    }

    mutating func double(at offset: Int) -> Double? {
        at = offset
        return readDouble()
    }

    /// A whole number; `JSONDecoder` also took one spelled with a
    /// fraction or exponent ("1750000000000.0", "1.75e12"), and stored
    /// payloads may have them.
    mutating func int64(at offset: Int) -> Int64? {
        at = offset
        guard let (start, end, integral) = scanNumber() else { return nil }
        guard integral else {
            at = offset
            return readDouble().flatMap { $0.rounded() == $0 ? Int64(exactly: $0) : nil }
        }
        var value: Int64 = 0
        var i = start
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        while i < end {
            let digit = Int64(bytes[i] &- UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// An array of numbers.
    mutating func doubles(at offset: Int) -> [Double]? {
        at = offset
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [Double] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return values }
        while true {
            skipSpace()
            guard let value = readDouble() else { return nil }
            values.append(value)
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) ? values : nil
        }
    }

    /// True when the value at `offset` is `null`.
    mutating func isNull(at offset: Int) -> Bool {
        at = offset
        return literal("null")
    }

    // MARK: scanning

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipValue(depth: Int) -> Bool {
        guard at < bytes.count, depth <= Self.maxDepth else { return false }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            return readString() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            at += 1
            skipSpace()
            if take(close) { return true }
            while true {
                if isObject {
                    guard readString() != nil else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipSpace()
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { skipSpace(); continue }
                return take(close)
            }
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return scanNumber() != nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { return false }
        at += count
        return true
    }

    /// A number by the JSON grammar: its bytes, and whether it has neither
    /// fraction nor exponent.
    private mutating func scanNumber() -> (start: Int, end: Int, integral: Bool)? {
        let start = at
        func digits() -> Int {
            let from = at
            while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 { at += 1 }
            return at - from
        }
        _ = take(UInt8(ascii: "-"))
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else if digits() == 0 {
            return nil
        }
        var integral = true
        if take(UInt8(ascii: ".")) {
            integral = false
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            integral = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        return (start, at, integral)
    }

    private mutating func readDouble() -> Double? {
        guard let (start, end, _) = scanNumber() else { return nil }
        let length = end - start
        let value: Double?
        if length < 64 {
            value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
                for i in 0..<length { text[i] = CChar(bitPattern: bytes[start + i]) }
                text[length] = 0
                // strtod follows the thread's locale; for this call it is C.
                let previous = uselocale(cLocale)
                defer { uselocale(previous) }
                return strtod(text.baseAddress!, nil)
            }
        } else {
            // Longer than any number a device writes (17 digits, sign,
            // point, exponent), but still JSON: read the slow way.
            value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
        // Too large for a Double is not a number a sketch can hold.
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    private mutating func readString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        // The usual case: no escapes, the bytes are the string.
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { return nil }
            at += 1
        }
        var utf8 = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { return nil }
                let escaped = bytes[at]
                at += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = readUnicodeEscape() else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The four hex digits after `\u`, and a second escape when they are
    /// the first half of a surrogate pair; a lone half is refused.
    private mutating func readUnicodeEscape() -> Unicode.Scalar? {
        guard let first = hex4() else { return nil }
        switch first {
        case 0xD800..<0xDC00:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let second = hex4(),
                  (0xDC00..<0xE000).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00..<0xE000:
            return nil
        default:
            return Unicode.Scalar(first)
        }
    }

    private mutating func hex4() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}

/// The C locale, for reading numbers the same way under any user locale.
nonisolated(unsafe) private let cLocale: locale_t = newlocale(Int32(1 << LC_NUMERIC), "C", nil)
