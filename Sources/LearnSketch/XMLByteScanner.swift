/// A small pull tokenizer over UTF-8 bytes, enough for the XML Xournal++
/// writes: tags with attributes in any order and either quote, text,
/// comments, CDATA, processing instructions and a DOCTYPE. It never copies:
/// every token is a range into the buffer, so skipping a megabyte of base64
/// image data costs one scan for '<'.
///
/// Works on an UnsafeBufferPointer the caller keeps alive for the scan.
struct XMLByteScanner {
    enum Token {
        case start(name: Range<Int>, attributes: Range<Int>, selfClosing: Bool)
        case end(name: Range<Int>)
        case text(Range<Int>)
        /// CDATA content: literal text, no entities.
        case cdata(Range<Int>)
        case eof
    }

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    let buf: UnsafeBufferPointer<UInt8>
    private(set) var pos: Int

    init(_ buf: UnsafeBufferPointer<UInt8>) {
        self.buf = buf
        // A UTF-8 byte order mark is legal before the XML declaration.
        pos = buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF ? 3 : 0
    }

    mutating func next() throws(Failure) -> Token {
        while true {
            guard pos < buf.count else { return .eof }
            if buf[pos] != UInt8(ascii: "<") {
                let start = pos
                pos = find(UInt8(ascii: "<"), from: pos) ?? buf.count
                return .text(start..<pos)
            }
            let open = pos
            guard pos + 1 < buf.count else { throw Failure(offset: open, reason: "file ends inside a tag") }
            switch buf[pos + 1] {
            case UInt8(ascii: "?"):
                pos = try skip(past: "?>", from: pos + 2, what: "processing instruction")
            case UInt8(ascii: "!"):
                if matches("<!--", at: pos) {
                    pos = try skip(past: "-->", from: pos + 4, what: "comment")
                } else if matches("<![CDATA[", at: pos) {
                    let start = pos + 9
                    pos = try skip(past: "]]>", from: start, what: "CDATA section")
                    return .cdata(start..<(pos - 3))
                } else {
                    pos = try skipDeclaration(from: pos + 2)
                }
            case UInt8(ascii: "/"):
                let nameStart = pos + 2
                let nameEnd = scanName(from: nameStart)
                guard nameEnd > nameStart else { throw Failure(offset: open, reason: "end tag without a name") }
                var i = skipSpace(from: nameEnd)
                guard i < buf.count, buf[i] == UInt8(ascii: ">") else {
                    throw Failure(offset: open, reason: "end tag not closed")
                }
                i += 1
                pos = i
                return .end(name: nameStart..<nameEnd)
            default:
                let nameStart = pos + 1
                let nameEnd = scanName(from: nameStart)
                guard nameEnd > nameStart else { throw Failure(offset: open, reason: "'<' that starts no tag") }
                // Attribute values may contain '>' and '/', so walk quotes.
                var i = nameEnd
                var quote: UInt8 = 0
                while i < buf.count {
                    let c = buf[i]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        quote = c
                    } else if c == UInt8(ascii: ">") {
                        break
                    } else if c == UInt8(ascii: "<") {
                        throw Failure(offset: i, reason: "'<' inside a tag")
                    }
                    i += 1
                }
                guard i < buf.count else { throw Failure(offset: open, reason: "file ends inside a tag") }
                let selfClosing = i > nameEnd && buf[i - 1] == UInt8(ascii: "/")
                let attrs = nameEnd..<(selfClosing ? i - 1 : i)
                pos = i + 1
                return .start(name: nameStart..<nameEnd, attributes: attrs, selfClosing: selfClosing)
            }
        }
    }

    /// Skips text the caller has consumed itself (a stroke's coordinates).
    mutating func advance(to offset: Int) {
        precondition(offset >= pos && offset <= buf.count)
        pos = offset
    }

    // MARK: - Attributes

    /// Calls `body(name, rawValue)` for each attribute in `range`; values are
    /// raw (entities not decoded).
    func forEachAttribute(in range: Range<Int>,
                          _ body: (Range<Int>, Range<Int>) throws(Failure) -> Void) throws(Failure) {
        var i = range.lowerBound
        let end = range.upperBound
        while true {
            i = skipSpace(from: i, limit: end)
            guard i < end else { return }
            let nameStart = i
            let nameEnd = scanName(from: i, limit: end)
            guard nameEnd > nameStart else { throw Failure(offset: i, reason: "bad attribute") }
            i = skipSpace(from: nameEnd, limit: end)
            guard i < end, buf[i] == UInt8(ascii: "=") else {
                throw Failure(offset: nameStart, reason: "attribute without a value")
            }
            i = skipSpace(from: i + 1, limit: end)
            guard i < end, buf[i] == UInt8(ascii: "\"") || buf[i] == UInt8(ascii: "'") else {
                throw Failure(offset: nameStart, reason: "attribute value without quotes")
            }
            let quote = buf[i]
            let valueStart = i + 1
            guard let close = find(quote, from: valueStart, limit: end) else {
                throw Failure(offset: nameStart, reason: "attribute value not closed")
            }
            try body(nameStart..<nameEnd, valueStart..<close)
            i = close + 1
        }
    }

    // MARK: - Bytes

    func equals(_ range: Range<Int>, _ s: StaticString) -> Bool {
        guard range.count == s.utf8CodeUnitCount else { return false }
        let p = s.utf8Start
        var k = 0
        for i in range {
            if buf[i] != p[k] { return false }
            k += 1
        }
        return true
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self)
    }

    /// Text with the five predefined entities and character references decoded.
    func decodedText(_ range: Range<Int>) -> String {
        guard find(UInt8(ascii: "&"), from: range.lowerBound, limit: range.upperBound) != nil else {
            return string(range)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let c = buf[i]
            // An entity is short: the ';' is looked for only within reach, so
            // text full of lone '&' is still read in one pass.
            guard c == UInt8(ascii: "&"),
                  let semi = find(UInt8(ascii: ";"), from: i + 1, limit: min(i + 13, range.upperBound))
            else {
                out.append(c); i += 1; continue
            }
            let entity = (i + 1)..<semi
            if let scalar = decodeEntity(entity) {
                out.append(contentsOf: String(Character(scalar)).utf8)
                i = semi + 1
            } else {
                out.append(c); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func decodeEntity(_ r: Range<Int>) -> Unicode.Scalar? {
        if equals(r, "amp") { return "&" }
        if equals(r, "lt") { return "<" }
        if equals(r, "gt") { return ">" }
        if equals(r, "quot") { return "\"" }
        if equals(r, "apos") { return "'" }
        guard r.count >= 2, buf[r.lowerBound] == UInt8(ascii: "#") else { return nil }
        let hex = buf[r.lowerBound + 1] == UInt8(ascii: "x") || buf[r.lowerBound + 1] == UInt8(ascii: "X")
        let digits = (r.lowerBound + (hex ? 2 : 1))..<r.upperBound
        guard !digits.isEmpty, let v = UInt32(string(digits), radix: hex ? 16 : 10) else { return nil }
        return Unicode.Scalar(v)
    }

    @inline(__always)
    func find(_ byte: UInt8, from start: Int, limit: Int? = nil) -> Int? {
        let end = limit ?? buf.count
        var i = start
        while i < end {
            if buf[i] == byte { return i }
            i += 1
        }
        return nil
    }

    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    func skipSpace(from start: Int, limit: Int? = nil) -> Int {
        let end = limit ?? buf.count
        var i = start
        while i < end, Self.isSpace(buf[i]) { i += 1 }
        return i
    }

    private func scanName(from start: Int, limit: Int? = nil) -> Int {
        let end = limit ?? buf.count
        var i = start
        while i < end {
            let c = buf[i]
            if Self.isSpace(c) || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                break
            }
            i += 1
        }
        return i
    }

    private func matches(_ s: StaticString, at i: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= buf.count else { return false }
        return equals(i..<(i + n), s)
    }

    private func skip(past terminator: StaticString, from start: Int, what: String) throws(Failure) -> Int {
        let first = terminator.utf8Start[0]
        var i = start
        while let j = find(first, from: i) {
            if matches(terminator, at: j) { return j + terminator.utf8CodeUnitCount }
            i = j + 1
        }
        throw Failure(offset: start, reason: "\(what) not closed")
    }

    /// `<!DOCTYPE …>`, possibly with an internal subset in brackets.
    private func skipDeclaration(from start: Int) throws(Failure) -> Int {
        var depth = 0
        var i = start
        while i < buf.count {
            switch buf[i] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return i + 1
            default: break
            }
            i += 1
        }
        throw Failure(offset: start, reason: "declaration not closed")
    }
}

/// Fast decimal parsing for coordinate lists. Coordinates written by
/// Xournal++ ("123.45678900") have few significant digits, so the mantissa
/// fits in 53 bits and one multiply or divide by an exact power of ten gives
/// the correctly rounded value (Clinger's fast path). Anything longer or with
/// a big exponent falls back to the standard library's parser.
enum DecimalParser {
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses one number starting at `i` (no leading space) and ending at a
    /// space or `end`. Advances `i` past it; nil when the bytes there are not
    /// a plain decimal number.
    @inline(__always)
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, _ i: inout Int, end: Int,
                      pow10: UnsafeBufferPointer<Double>) -> Double? {
        let start = i
        var j = i
        var negative = false
        if j < end {
            if buf[j] == UInt8(ascii: "-") { negative = true; j += 1 } else if buf[j] == UInt8(ascii: "+") { j += 1 }
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        while j < end {
            let d = buf[j] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            if significant < 19 {
                if mantissa != 0 || d != 0 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(d)
            } else {
                exponent += 1
            }
            digits += 1
            j += 1
        }
        if j < end, buf[j] == UInt8(ascii: ".") {
            j += 1
            while j < end {
                let d = buf[j] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if significant < 19 {
                    if mantissa != 0 || d != 0 { significant += 1 }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    exponent -= 1
                }
                digits += 1
                j += 1
            }
        }
        guard digits > 0 else { return nil }
        if j < end, buf[j] == UInt8(ascii: "e") || buf[j] == UInt8(ascii: "E") {
            j += 1
            var expNegative = false
            if j < end, buf[j] == UInt8(ascii: "-") || buf[j] == UInt8(ascii: "+") {
                expNegative = buf[j] == UInt8(ascii: "-"); j += 1
            }
            var e = 0
            var expDigits = 0
            while j < end {
                let d = buf[j] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if e < 100_000 { e = e * 10 + Int(d) }
                expDigits += 1
                j += 1
            }
            guard expDigits > 0 else { return nil }
            exponent += expNegative ? -e : e
        }
        // The number must end at a separator, not run into garbage ("1.2.3", "12px").
        if j < end, !XMLByteScanner.isSpace(buf[j]) { return nil }
        i = j
        if mantissa == 0 { return negative ? -0.0 : 0 }
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            let v = exponent < 0 ? m / pow10[-exponent] : m * pow10[exponent]
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<j]), as: UTF8.self)
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }

    static func withPowersOfTen<R, E: Error>(_ body: (UnsafeBufferPointer<Double>) throws(E) -> R) throws(E) -> R {
        try powersOfTen.withUnsafeBufferPointer { (p) throws(E) -> R in try body(p) }
    }

    /// Convenience for attribute values: every number in `range`.
    /// `allowingNaN`: "nan" (as C's printf writes it, any case, with a
    /// sign or not) reads as NaN; old Xournal++ versions wrote it for
    /// pressure they did not have.
    static func numbers(in buf: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowingNaN: Bool = false) -> [Double]? {
        withPowersOfTen { pow10 in
            var out: [Double] = []
            var i = range.lowerBound
            while true {
                while i < range.upperBound, XMLByteScanner.isSpace(buf[i]) { i += 1 }
                guard i < range.upperBound else { return out }
                if allowingNaN, let after = notANumber(buf, at: i, end: range.upperBound) {
                    out.append(.nan)
                    i = after
                    continue
                }
                guard let v = parse(buf, &i, end: range.upperBound, pow10: pow10) else { return nil }
                out.append(v)
            }
        }
    }

    /// The index after "nan", "-nan" or "+nan" (any case) at `i` when it
    /// stands alone there, else nil.
    private static func notANumber(_ buf: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Int? {
        var i = start
        if i < end, buf[i] == UInt8(ascii: "-") || buf[i] == UInt8(ascii: "+") { i += 1 }
        guard end - i >= 3 else { return nil }
        let word = (buf[i] | 0x20, buf[i + 1] | 0x20, buf[i + 2] | 0x20)
        guard word == (UInt8(ascii: "n"), UInt8(ascii: "a"), UInt8(ascii: "n")) else { return nil }
        i += 3
        guard i == end || XMLByteScanner.isSpace(buf[i]) else { return nil }
        return i
    }
}
