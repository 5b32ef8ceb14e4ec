import Foundation
import LearnBasics

/// Reads Xournal++ XML into an `XoppImport`: ink of the first page, counts of
/// everything left out. One pass over the bytes; coordinates are parsed in
/// place from the stroke's text.
struct XoppReader {
    private var scanner: XMLByteScanner
    private let author: String
    private let date: Date

    private var title: String?
    private var pageWidth = SketchMeta.defaultWidth
    private var pageHeight = SketchMeta.defaultHeight
    private var guides = LineGuides.none
    private var strokes: [Stroke] = []
    private var pages = 0
    private var result = XoppImport(title: nil, pageWidth: 0, pageHeight: 0, guides: .none, strokes: [])

    /// Open elements, as name ranges, to check that end tags match.
    private var open: [Range<Int>] = []
    /// How many of the open elements are the first page: kept as a count so
    /// asking "inside the first page?" costs nothing however deep the nesting.
    private var openFirstPages = 0
    private var points: [Point] = []
    private var ids = UUIDSource()

    init(_ buf: UnsafeBufferPointer<UInt8>, author: String, date: Date) {
        scanner = XMLByteScanner(buf)
        self.author = author
        self.date = date
    }

    mutating func read() throws(XoppError) -> XoppImport {
        let buf = scanner.buf
        if buf.count >= 2, buf[0] == 0x1F, buf[1] == 0x8B { throw .gzipCompressed }
        do {
            try DecimalParser.withPowersOfTen { (pow10) throws(XMLByteScanner.Failure) in
                try readRoot()
                try readBody(pow10: pow10)
            }
        } catch let failure {
            if failure.offset == NotXournal.failure.offset { throw .notXournal }
            throw .malformed(line: line(at: failure.offset), reason: failure.reason)
        }
        guard pages > 0 else { throw .malformed(line: line(at: buf.count), reason: "the document has no page") }
        result.title = title
        result.pageWidth = pageWidth
        result.pageHeight = pageHeight
        result.guides = guides
        result.strokes = strokes
        return result
    }

    /// Everything up to the root element. Anything but `<xournal>` there means
    /// a foreign file, which is `notXournal` rather than "malformed".
    private mutating func readRoot() throws(XMLByteScanner.Failure) {
        while true {
            let token: XMLByteScanner.Token
            do { token = try scanner.next() } catch { throw NotXournal.failure }
            switch token {
            case .text(let r):
                guard scanner.skipSpace(from: r.lowerBound, limit: r.upperBound) == r.upperBound else {
                    throw NotXournal.failure
                }
            case .start(let name, _, let selfClosing):
                guard scanner.equals(name, "xournal") else { throw NotXournal.failure }
                guard !selfClosing else {
                    throw XMLByteScanner.Failure(offset: name.lowerBound, reason: "empty document")
                }
                open.append(name)
                return
            case .end, .cdata, .eof:
                throw NotXournal.failure
            }
        }
    }

    private mutating func readBody(pow10: UnsafeBufferPointer<Double>) throws(XMLByteScanner.Failure) {
        while !open.isEmpty {
            switch try scanner.next() {
            case .eof:
                let name = scanner.string(open[open.count - 1])
                throw XMLByteScanner.Failure(offset: scanner.buf.count, reason: "file ends inside <\(name)>")
            case .text, .cdata:
                break
            case .end(let name):
                let top = open.removeLast()
                if pages == 1, open.count == 1, scanner.equals(top, "page") { openFirstPages -= 1 }
                guard scanner.buf[top].elementsEqual(scanner.buf[name]) else {
                    throw XMLByteScanner.Failure(offset: name.lowerBound - 2, reason:
                        "</\(scanner.string(name))> closes <\(scanner.string(top))>")
                }
            case .start(let name, let attrs, let selfClosing):
                try element(name: name, attributes: attrs, selfClosing: selfClosing, pow10: pow10)
            }
        }
    }

    private mutating func element(name: Range<Int>, attributes attrs: Range<Int>, selfClosing: Bool,
                                  pow10: UnsafeBufferPointer<Double>) throws(XMLByteScanner.Failure) {
        let parent = open.last
        let inFirstPage = openFirstPages > 0
        if scanner.equals(name, "page"), open.count == 1 {
            pages += 1
            if pages == 1 {
                try readPageSize(attrs)
                if !selfClosing { openFirstPages += 1 }
            } else {
                result.skippedPages += 1
            }
        } else if inFirstPage, scanner.equals(name, "stroke") {
            // Handled whole here: attributes, coordinates, end tag.
            try readStroke(name: name, attributes: attrs, selfClosing: selfClosing, pow10: pow10)
            return
        } else if inFirstPage, scanner.equals(name, "text") {
            result.skippedTexts += 1
        } else if inFirstPage, scanner.equals(name, "image") {
            result.skippedImages += 1
        } else if inFirstPage, scanner.equals(name, "teximage") {
            result.skippedTeX += 1
        } else if inFirstPage, scanner.equals(name, "background") {
            var style: String?
            try scanner.forEachAttribute(in: attrs) { n, v throws(XMLByteScanner.Failure) in
                if scanner.equals(n, "style") { style = scanner.string(v) }
            }
            if let style { guides = XoppFormat.guides(forBackgroundStyle: style) }
        } else if scanner.equals(name, "title"), let parent, open.count == 1, scanner.equals(parent, "xournal"),
                  !selfClosing {
            title = try readText(until: name)
            return
        }
        if !selfClosing { open.append(name) }
    }

    private mutating func readPageSize(_ attrs: Range<Int>) throws(XMLByteScanner.Failure) {
        var width: Double?, height: Double?
        try scanner.forEachAttribute(in: attrs) { n, v throws(XMLByteScanner.Failure) in
            if scanner.equals(n, "width") {
                width = DecimalParser.numbers(in: scanner.buf, v)?.first
            } else if scanner.equals(n, "height") {
                height = DecimalParser.numbers(in: scanner.buf, v)?.first
            }
        }
        guard let width, let height, width > 0, height > 0, width.isFinite, height.isFinite else {
            throw XMLByteScanner.Failure(offset: attrs.lowerBound, reason: "page without a valid width and height")
        }
        pageWidth = width
        pageHeight = height
    }

    /// Text content of a simple element (the title), entities decoded.
    private mutating func readText(until name: Range<Int>) throws(XMLByteScanner.Failure) -> String {
        var text = ""
        while true {
            switch try scanner.next() {
            case .text(let r): text += scanner.decodedText(r)
            case .cdata(let r): text += scanner.string(r)
            case .end(let end) where scanner.buf[end].elementsEqual(scanner.buf[name]):
                return text
            case .eof:
                throw XMLByteScanner.Failure(offset: scanner.buf.count, reason: "file ends inside <title>")
            default:
                throw XMLByteScanner.Failure(offset: scanner.pos, reason: "unexpected markup inside <title>")
            }
        }
    }

    private mutating func readStroke(name: Range<Int>, attributes attrs: Range<Int>, selfClosing: Bool,
                                     pow10: UnsafeBufferPointer<Double>) throws(XMLByteScanner.Failure) {
        var tool: Range<Int>?
        var colorValue: Range<Int>?
        var widthValue: Range<Int>?
        var fillValue: Range<Int>?
        var styleValue: Range<Int>?
        try scanner.forEachAttribute(in: attrs) { n, v throws(XMLByteScanner.Failure) in
            if scanner.equals(n, "tool") { tool = v }
            else if scanner.equals(n, "color") { colorValue = v }
            else if scanner.equals(n, "width") { widthValue = v }
            else if scanner.equals(n, "fill") { fillValue = v }
            else if scanner.equals(n, "style") { styleValue = v }
        }
        if selfClosing { return }  // no points, nothing to draw

        // Coordinates: the text up to the next tag, which must close the stroke.
        let buf = scanner.buf
        let textStart = scanner.pos
        guard let textEnd = scanner.find(UInt8(ascii: "<"), from: textStart) else {
            throw XMLByteScanner.Failure(offset: buf.count, reason: "file ends inside <stroke>")
        }
        scanner.advance(to: textEnd)
        let closing = try scanner.next()
        guard case .end(let endName) = closing, buf[endName].elementsEqual(buf[name]) else {
            throw XMLByteScanner.Failure(offset: textEnd, reason: "<stroke> holds something other than points")
        }

        // Eraser ("whiteout") strokes are ink in their own colour, usually
        // white: Xournal++ 1.1.3 draws them so, and so do we.
        points.removeAll(keepingCapacity: true)
        try readPoints(textStart..<textEnd, pow10: pow10)
        guard !points.isEmpty else { return }
        let isHighlighter = tool.map { scanner.equals($0, "highlighter") } ?? false

        guard let widthValue, let widths = DecimalParser.numbers(in: buf, widthValue, allowingNaN: true),
              let nominal = widths.first,
              nominal.isFinite, nominal > 0
        else {
            throw XMLByteScanner.Failure(offset: attrs.lowerBound, reason: "stroke without a valid width")
        }
        // Pressure strokes list one width per segment after the nominal one
        // (the width of the point each segment starts from). Xournal++ uses
        // as many as there are, and a segment without one keeps the width
        // before it; highlighters ignore pressure. The values are checked
        // against the limits with the rest of the stroke.
        var pressure: [Double]?
        if widths.count > 1, points.count > 1, !isHighlighter {
            var list: [Double] = []
            list.reserveCapacity(points.count - 1)
            var last = nominal
            var broken = false
            for k in 0..<(points.count - 1) {
                if k + 1 < widths.count {
                    let w = widths[k + 1]
                    if !(w.isFinite && w > 0) { broken = true }
                    last = w
                }
                list.append(last)
            }
            if broken {
                // Old Xournal++ versions wrote points of zero, negative or
                // no pressure (invisible ink). Xournal++ drops those points
                // and splits the stroke where they were; so do we, and say so.
                result.mendedPressure += 1
                try appendMended(list, tool: tool, colorValue: colorValue, fillValue: fillValue, styleValue: styleValue,
                                 nominal: nominal, pow10: pow10)
                return
            }
            pressure = list
        }
        try appendStroke(widths: pressure, tool: tool, colorValue: colorValue, fillValue: fillValue,
                         styleValue: styleValue, nominal: nominal, pow10: pow10)
    }

    /// The stroke in `points`, with these per-segment widths (nil: the
    /// nominal width throughout).
    private mutating func appendStroke(widths pressure: [Double]?, tool: Range<Int>?, colorValue: Range<Int>?,
                                       fillValue: Range<Int>?, styleValue: Range<Int>?, nominal: Double,
                                       pow10: UnsafeBufferPointer<Double>) throws(XMLByteScanner.Failure) {
        let isHighlighter = tool.map { scanner.equals($0, "highlighter") } ?? false
        let fill = fillValue.flatMap(fillOpacity)
        // Xournal++ draws a style it does not know as a plain line; so do we.
        let dashes = styleValue.flatMap { dashPattern($0, pow10: pow10) }

        var color = RGBA(r: 0, g: 0, b: 0)
        if let colorValue, let c = parseColor(colorValue) {
            color = c
        } else {
            result.unknownColors += 1
        }
        if isHighlighter { color.a = XoppFormat.highlighterAlpha }
        let blend: StrokeBlend? = isHighlighter ? .multiply : nil

        let first = points[0]
        if points.count <= 2, points[points.count - 1].distance(to: first) <= XoppFormat.dotTolerance {
            // A tap: in Xournal++ a disc of diameter `width`, here a dot of radius.
            // Pressure, fill and dashes mean nothing for a disc.
            strokes.append(Stroke(id: ids.next(), author: author, color: color, width: nominal / 2, start: first,
                                  segments: [], startedAt: date, endedAt: date, blend: blend))
            return
        }
        var segments: [CubicSegment] = []
        segments.reserveCapacity(points.count - 1)
        points.withUnsafeBufferPointer { p in
            for k in 1..<p.count { segments.append(.line(from: p[k - 1], to: p[k])) }
        }
        strokes.append(Stroke(id: ids.next(), author: author, color: color, width: nominal, start: first,
                              segments: segments, startedAt: date, endedAt: date, widths: pressure, fill: fill,
                              dashes: dashes, blend: blend))
    }

    /// The pieces of a pressure stroke between its points of no pressure,
    /// each a stroke of its own: a piece is the points whose pressure is
    /// good and the point after the last of them (`perSegment` has one
    /// width per segment). A stroke with no good pressure at all is left
    /// out whole.
    private mutating func appendMended(_ perSegment: [Double], tool: Range<Int>?, colorValue: Range<Int>?,
                                       fillValue: Range<Int>?, styleValue: Range<Int>?, nominal: Double,
                                       pow10: UnsafeBufferPointer<Double>) throws(XMLByteScanner.Failure) {
        let all = points
        // One stroke of the file: an unknown colour counts once, not per piece.
        let unknownBefore = result.unknownColors
        defer {
            points = all
            result.unknownColors = min(result.unknownColors, unknownBefore + 1)
        }
        var k = 0
        while k < perSegment.count {
            guard perSegment[k].isFinite, perSegment[k] > 0 else { k += 1; continue }
            var end = k
            while end < perSegment.count, perSegment[end].isFinite, perSegment[end] > 0 { end += 1 }
            points = Array(all[k...end])
            try appendStroke(widths: Array(perSegment[k..<end]), tool: tool, colorValue: colorValue,
                             fillValue: fillValue, styleValue: styleValue, nominal: nominal, pow10: pow10)
            k = end
        }
    }

    private mutating func readPoints(_ range: Range<Int>, pow10: UnsafeBufferPointer<Double>)
        throws(XMLByteScanner.Failure) {
        let buf = scanner.buf
        var i = range.lowerBound
        let end = range.upperBound
        while true {
            while i < end, XMLByteScanner.isSpace(buf[i]) { i += 1 }
            guard i < end else { return }
            let numberStart = i
            guard let x = DecimalParser.parse(buf, &i, end: end, pow10: pow10) else {
                throw XMLByteScanner.Failure(offset: numberStart, reason: "bad coordinate")
            }
            while i < end, XMLByteScanner.isSpace(buf[i]) { i += 1 }
            guard i < end else {
                throw XMLByteScanner.Failure(offset: numberStart, reason: "odd number of coordinates")
            }
            let yStart = i
            guard let y = DecimalParser.parse(buf, &i, end: end, pow10: pow10) else {
                throw XMLByteScanner.Failure(offset: yStart, reason: "bad coordinate")
            }
            points.append(Point(x, y))
        }
    }

    /// Xournal++'s `fill` is the fill's alpha, 0–255; -1 is no fill. Values
    /// past 255 are refused later, with the stroke's other numbers.
    private func fillOpacity(_ r: Range<Int>) -> Double? {
        guard let value = DecimalParser.numbers(in: scanner.buf, r)?.first else { return nil }
        guard value != -1 else { return nil }
        return value / 255
    }

    /// Xournal++'s `style`: "plain", "dash", "dashdot", "dot" or
    /// "cust: a b c" (lengths in points). Nil for a solid line. The lengths
    /// are checked against the limits with the stroke's other numbers;
    /// reading stops one past the most a pattern may have, so a hostile
    /// pattern of a million lengths costs nothing before it is refused.
    private func dashPattern(_ r: Range<Int>, pow10: UnsafeBufferPointer<Double>) -> [Double]? {
        let buf = scanner.buf
        if scanner.equals(r, "dash") { return XoppFormat.dashPattern }
        if scanner.equals(r, "dashdot") { return XoppFormat.dashDotPattern }
        if scanner.equals(r, "dot") { return XoppFormat.dotPattern }
        let prefix = Array("cust:".utf8)
        guard r.count > prefix.count, buf[r.lowerBound..<(r.lowerBound + prefix.count)].elementsEqual(prefix) else {
            return nil
        }
        var lengths: [Double] = []
        var i = r.lowerBound + prefix.count
        while lengths.count <= SketchLimits.maxDashes {
            while i < r.upperBound, XMLByteScanner.isSpace(buf[i]) { i += 1 }
            guard i < r.upperBound, let v = DecimalParser.parse(buf, &i, end: r.upperBound, pow10: pow10) else { break }
            lengths.append(v)
        }
        // Like Xournal++: what parses before anything else is the pattern.
        return lengths.isEmpty ? nil : lengths
    }

    /// "#RRGGBBAA", "#RRGGBB" or one of Xournal's colour names.
    private func parseColor(_ r: Range<Int>) -> RGBA? {
        let buf = scanner.buf
        if r.count > 0, buf[r.lowerBound] == UInt8(ascii: "#") {
            let hex = (r.lowerBound + 1)..<r.upperBound
            guard hex.count == 8 || hex.count == 6 else { return nil }
            var v: UInt32 = 0
            for i in hex {
                let c = buf[i]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            if hex.count == 6 { return RGBA(hex: v) }
            return RGBA(hex: v >> 8, alpha: Double(v & 0xFF) / 255)
        }
        return XoppFormat.namedColors[scanner.string(r).lowercased()].map { RGBA(hex: $0) }
    }

    private func line(at offset: Int) -> Int {
        let buf = scanner.buf
        var n = 1
        for i in 0..<min(max(offset, 0), buf.count) where buf[i] == 0x0A { n += 1 }
        return n
    }
}

/// Marks a failure before the root element: the file is not ours to judge.
private enum NotXournal {
    static let failure = XMLByteScanner.Failure(offset: -1, reason: "not a Xournal++ document")
}
