/// Writes Xournal++ XML straight into bytes. Numbers get at most two
/// decimals (a hundredth of a point is far below what anyone sees) and are
/// formatted by hand: String(format:) per coordinate would dominate the cost.
struct XoppWriter {
    private(set) var bytes: [UInt8] = []

    static func document(title: String, width: Double, height: Double, guides: LineGuides,
                         strokes: [Stroke]) -> [UInt8] {
        var w = XoppWriter()
        // About 14 bytes per coordinate pair plus tags; one reallocation at most.
        let segmentCount = strokes.reduce(0) { $0 + $1.segments.count }
        w.bytes.reserveCapacity(512 + strokes.count * 80 + segmentCount * 16)
        w.append("<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"")
        w.append(escaping: XoppFormat.creator)
        w.append("\" fileversion=\"4\">\n<title>")
        w.append(escaping: title)
        w.append("</title>\n<page width=\"")
        w.append(number: width)
        w.append("\" height=\"")
        w.append(number: height)
        w.append("\">\n<background type=\"solid\" color=\"#ffffffff\" style=\"")
        w.append(XoppFormat.backgroundStyle(for: guides))
        w.append("\"/>\n<layer>\n")
        var points: [Point] = []
        for s in strokes { w.append(stroke: s, scratch: &points) }
        w.append("</layer>\n</page>\n</xournal>\n")
        return w.bytes
    }

    private mutating func append(stroke s: Stroke, scratch points: inout [Point]) {
        points.removeAll(keepingCapacity: true)
        let width: Double
        // A pressure stroke's width per piece: a curve flattened into several
        // pieces gives each of them its segment's width.
        var pieceWidths: [Double] = []
        if s.isDot {
            // Xournal++ drops strokes of fewer than two points; two equal
            // points with round caps draw the dot's disc.
            points.append(s.start)
            points.append(s.start)
            width = 2 * s.width
        } else {
            points.append(s.start)
            var p0 = s.start
            if s.widths != nil { pieceWidths.reserveCapacity(s.segments.count) }
            for (k, seg) in s.segments.enumerated() {
                let before = points.count
                StrokeFlattening.appendPoints(of: seg, from: p0, tolerance: StrokeFlattening.defaultTolerance,
                                              to: &points)
                if s.widths != nil {
                    let w = s.width(ofSegment: k)
                    for _ in before..<points.count { pieceWidths.append(w) }
                }
                p0 = seg.end
            }
            width = s.width
        }
        // Highlighters are Xournal++'s multiplying tool; it draws them at its
        // own opacity whatever alpha the colour has.
        append(s.blend == .multiply ? "<stroke tool=\"highlighter\" color=\"#" : "<stroke tool=\"pen\" color=\"#")
        append(hexComponent: s.color.r)
        append(hexComponent: s.color.g)
        append(hexComponent: s.color.b)
        append(hexComponent: s.color.a)
        append("\" width=\"")
        append(number: width)
        // Pressure: the nominal width, then one per piece (Xournal++'s layout).
        for w in pieceWidths {
            bytes.append(0x20)
            append(number: w)
        }
        append("\"")
        if !s.isDot, let fill = s.fill {
            append(" fill=\"")
            append(number: (min(max(fill, 0), 1) * 255).rounded())
            append("\"")
        }
        if !s.isDot, let dashes = s.dashes, !dashes.isEmpty {
            append(" style=\"")
            append(dashStyle: dashes)
            append("\"")
        }
        append(">")
        var first = true
        for p in points {
            if !first { bytes.append(0x20) }
            first = false
            append(number: p.x)
            bytes.append(0x20)
            append(number: p.y)
        }
        append("</stroke>\n")
    }

    /// Xournal++'s name for a pattern it has one for, else "cust: a b …".
    private mutating func append(dashStyle dashes: [Double]) {
        switch dashes {
        case XoppFormat.dashPattern: append("dash")
        case XoppFormat.dashDotPattern: append("dashdot")
        case XoppFormat.dotPattern: append("dot")
        default:
            // Exactly: rounded to hundredths, a fine pattern could add up
            // to less than the limits allow and not open again.
            append("cust:")
            for d in dashes {
                bytes.append(0x20)
                append(exactNumber: d)
            }
        }
    }

    // MARK: - Pieces

    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    /// XML text or attribute value; control characters other than tab and
    /// newline are not allowed in XML 1.0 at all, so they are dropped.
    mutating func append(escaping s: String) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            case 0x09, 0x0A: bytes.append(b)
            case 0..<0x20: break
            default: bytes.append(b)
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func append(hexComponent c: Double) {
        let v = c.isFinite ? Int((min(max(c, 0), 1) * 255).rounded()) : 0
        bytes.append(Self.hexDigits[v >> 4])
        bytes.append(Self.hexDigits[v & 15])
    }

    /// `v` as `append(number:)` writes it when that is exact, else its
    /// shortest round-tripping form (1.005, 1e-05).
    mutating func append(exactNumber v: Double) {
        if v.isFinite, abs(v) < 1e12, (v * 100).rounded() / 100 == v {
            append(number: v)
        } else {
            append(v.isFinite ? "\(v)" : "0")
        }
    }

    /// Shortest decimal with at most two fraction digits: 12, 12.5, -0.25.
    mutating func append(number v: Double) {
        guard v.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        let hundredths = (v * 100).rounded()
        // Beyond 2^53 hundredths the digits are noise anyway; no sketch gets there.
        // Such values only come from a document built in memory (files are checked
        // on the way in); they are written whole, without an integer conversion
        // that could trap.
        guard abs(hundredths) < 9.0e15 else { append(String(format: "%.0f", v)); return }
        var n = Int64(hundredths)
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        let whole = n / 100, frac = Int(n % 100)
        append(digitsOf: whole)
        if frac != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(frac / 10))
            if frac % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(frac % 10)) }
        }
    }

    private mutating func append(digitsOf n: Int64) {
        if n < 10 { bytes.append(UInt8(ascii: "0") + UInt8(n)); return }
        // At most 16 digits here; fill a small stack buffer from the right.
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var m = n
        withUnsafeMutableBytes(of: &tmp) { buf in
            while m > 0 {
                count += 1
                buf[24 - count] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
            }
            bytes.append(contentsOf: buf[(24 - count)...])
        }
    }
}
