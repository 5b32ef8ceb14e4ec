import Foundation

/// Why a Xournal++ file could not be imported.
public enum XoppError: Error, Hashable, Sendable, LocalizedError {
    /// Not a Xournal++ document (another format, or XML whose root is not `<xournal>`).
    case notXournal
    /// Still gzip-compressed: `.xopp` files are gzip on disk; inflate them first.
    case gzipCompressed
    /// A Xournal++ document that breaks the format at `line` (1-based).
    case malformed(line: Int, reason: String)
    /// Well-formed, but holding values no real page has.
    case outOfLimits(SketchLimitError)

    public var errorDescription: String? {
        switch self {
        case .notXournal: "This file is not a Xournal++ document."
        case .gzipCompressed: "This Xournal++ file is still compressed."
        case .malformed(let line, let reason): "This Xournal++ document is damaged (line \(line): \(reason))."
        case .outOfLimits(let why): "This Xournal++ document cannot be opened: \(why.errorDescription ?? "")"
        }
    }
}

/// What an imported Xournal++ document gave us. Teamsketch has one page and
/// only ink, so everything else is counted rather than silently lost: the UI
/// can tell the teacher "3 texts and 1 image were left out".
public struct XoppImport: Hashable, Sendable {
    public var title: String?
    public var pageWidth: Double
    public var pageHeight: Double
    public var guides: LineGuides
    /// Ink of the first page, all layers in drawing order. Each stroke is a
    /// polyline of straight segments (Xournal++ stores points, not curves).
    public var strokes: [Stroke]
    /// Pages after the first.
    public var skippedPages = 0
    public var skippedTexts = 0
    /// `<image>` elements.
    public var skippedImages = 0
    /// `<teximage>` elements (LaTeX formulas).
    public var skippedTeX = 0
    /// Strokes whose colour we did not understand; they were imported in black.
    public var unknownColors = 0
    /// Pressure strokes mended the way Xournal++ mends them (`ImportLeftOut.mendedPressure`).
    public var mendedPressure = 0

    public init(title: String?, pageWidth: Double, pageHeight: Double, guides: LineGuides, strokes: [Stroke]) {
        self.title = title; self.pageWidth = pageWidth; self.pageHeight = pageHeight
        self.guides = guides; self.strokes = strokes
    }

    /// How many things did not come across as they were.
    public var warningCount: Int { leftOut.total }

    /// What the person is told was left out.
    public var leftOut: ImportLeftOut {
        ImportLeftOut(pages: skippedPages, texts: skippedTexts, images: skippedImages, texFormulas: skippedTeX,
                      unknownColors: unknownColors, mendedPressure: mendedPressure)
    }

    /// A new sketch holding the imported ink on a canvas of the page's size.
    public func document(name: String? = nil, createdAt: Date = Date()) -> SketchDocument {
        let title = (name ?? self.title).flatMap { $0.isEmpty ? nil : String($0.prefix(SketchLimits.maxNameLength)) }
            ?? "Xournal++"
        let meta = SketchMeta(name: title, guides: guides, width: pageWidth, height: pageHeight, createdAt: createdAt)
        return SketchDocument(meta: meta, ops: strokes.map(SketchOp.addStroke))
    }

    /// The same ink scaled uniformly (positions and widths) and centred to fit
    /// a canvas, e.g. an A4 page (595 × 842 pt) onto Teamsketch's 1600 × 1000.
    public func scaled(toFit width: Double, height: Double) -> XoppImport {
        guard pageWidth > 0, pageHeight > 0, width > 0, height > 0 else { return self }
        let k = min(width / pageWidth, height / pageHeight)
        let off = Point((width - pageWidth * k) / 2, (height - pageHeight * k) / 2)
        func map(_ p: Point) -> Point { Point(p.x * k + off.x, p.y * k + off.y) }
        var out = self
        out.pageWidth = width
        out.pageHeight = height
        out.strokes = strokes.map { s in
            var t = s
            t.start = map(s.start)
            t.width = s.width * k
            t.widths = s.widths?.map { $0 * k }
            t.dashes = s.dashes?.map { $0 * k }
            t.segments = s.segments.map { CubicSegment(c1: map($0.c1), c2: map($0.c2), end: map($0.end)) }
            return t
        }
        return out
    }
}

/// Xournal++ `.xopp` documents: the uncompressed XML inside the gzip (the app
/// does the gzip with zlib).
///
/// Both directions work on bytes, not Foundation XML or String formatting:
/// a class sketch of 5,000 strokes × 60 points must cross in well under
/// 100 ms.
public enum XoppFormat {
    public static let fileExtension = "xopp"
    public static let creator = "Teamsketch Desktop"
    public static let defaultAuthor = "Xournal++"

    /// Xournal++ draws a stroke with at least two points; a dot is written as
    /// two equal points with a width of the dot's diameter, which is also what
    /// Xournal++ itself writes for a tap. Reading back, a stroke of at most
    /// two points this close together becomes a dot again.
    public static let dotTolerance = 0.05

    /// Xournal++ renders highlighters at this opacity (120 of 255) whatever
    /// alpha the file holds, multiplied onto what is under them (Cairo's
    /// MULTIPLY, in 1.1.3 as in later versions). Imported highlighters get
    /// this alpha in their colour and `StrokeBlend.multiply`, and are
    /// written back as `tool="highlighter"`.
    public static let highlighterAlpha = 120.0 / 255

    /// Xournal++'s named dash patterns (`style`), in points, as its
    /// StrokeStyle defines them; any other pattern is written "cust: …".
    public static let dashPattern: [Double] = [6, 3]
    public static let dashDotPattern: [Double] = [6, 3, 0.5, 3]
    public static let dotPattern: [Double] = [0.5, 3]

    /// The XML of a one-page Xournal++ document holding the sketch's visible ink.
    public static func export(_ doc: SketchDocument) -> [UInt8] {
        XoppWriter.document(title: doc.meta.name, width: doc.meta.width, height: doc.meta.height,
                            guides: doc.meta.guides, strokes: doc.strokes)
    }

    public static func export(strokes: [Stroke], meta: SketchMeta) -> [UInt8] {
        XoppWriter.document(title: meta.name, width: meta.width, height: meta.height, guides: meta.guides,
                            strokes: strokes)
    }

    /// Reads the XML of a Xournal++ document (written by Xournal++ 1.1.x or by
    /// us). Imported strokes get `author` and, since Xournal++ keeps no stroke
    /// times, `date` as both start and end.
    public static func parse(_ bytes: [UInt8], author: String = defaultAuthor,
                             date: Date = Date()) throws(XoppError) -> XoppImport {
        try bytes.withUnsafeBufferPointer { (buf) throws(XoppError) -> XoppImport in
            var reader = XoppReader(buf, author: author, date: date)
            let imported = try reader.read()
            do throws(SketchLimitError) {
                try SketchValidation.check(SketchMeta(name: "", width: imported.pageWidth,
                                                      height: imported.pageHeight, createdAt: date))
                try SketchValidation.check(ops: imported.strokes.map(SketchOp.addStroke))
            } catch {
                throw .outOfLimits(error)
            }
            return imported
        }
    }

    public static func parse(_ data: Data, author: String = defaultAuthor,
                             date: Date = Date()) throws(XoppError) -> XoppImport {
        try parse([UInt8](data), author: author, date: date)
    }

    // MARK: - Shared vocabulary

    /// Xournal++'s named colours (from old Xournal files), as its loader maps them.
    static let namedColors: [String: UInt32] = [
        "black": 0x000000, "blue": 0x3333CC, "red": 0xFF0000, "green": 0x008000, "gray": 0x808080,
        "lightblue": 0x00C0FF, "lightgreen": 0x00FF00, "magenta": 0xFF00FF, "orange": 0xFF8000,
        "yellow": 0xFFFF00, "white": 0xFFFFFF,
    ]

    static func backgroundStyle(for guides: LineGuides) -> String {
        switch guides {
        case .none: "plain"
        case .squared: "graph"
        case .lined: "lined"
        }
    }

    static func guides(forBackgroundStyle style: String) -> LineGuides {
        switch style {
        case "graph", "dotted", "isograph", "isodotted": .squared
        case "lined", "ruled", "staves": .lined
        default: .none
        }
    }
}
