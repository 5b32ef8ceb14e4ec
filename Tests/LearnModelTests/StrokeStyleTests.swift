import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// The optional styles a stroke may bring from Xournal++ (pressure widths,
/// fill, dash pattern, multiply blending): they round-trip through every
/// encoding, are left out of them when absent (so plain strokes encode as
/// before), and hostile values are refused with a message, never a trap.
@Suite struct StrokeStyleTests {
    private static let points = [Point(10, 10), Point(50, 20), Point(90, 10), Point(10, 10)]

    static func styled() -> Stroke {
        var s = polylineStroke(points, width: 3, color: RGBA(r: 0, g: 0.5, b: 1), id: UUID(), at: 1)
        s.widths = [2, 4.5, 6]
        s.fill = 0.5
        s.dashes = [6, 3, 0.5, 3]
        s.blend = .multiply
        return s
    }

    private func document(_ strokes: [Stroke]) -> SketchDocument {
        SketchDocument(meta: SketchMeta(name: "Stile", width: 200, height: 100, createdAt: sketchDate(0)),
                       ops: strokes.map(SketchOp.addStroke))
    }

    private func json(_ value: some Encodable) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    // MARK: - Encodings

    @Test func plainStrokesEncodeWithoutTheNewKeys() throws {
        let plain = polylineStroke(Self.points)
        #expect(plain.isPlain)
        for text in [try json(plain), String(decoding: try SketchOpPayload.encode(.addStroke(plain)), as: UTF8.self),
                     String(decoding: try SketchFileFormat.encode(document([plain])), as: UTF8.self)] {
            for key in ["widths", "fill", "dashes", "blend"] { #expect(!text.contains("\"\(key)\""), "\(key) in \(text)") }
        }
    }

    /// A stroke as an older app wrote it (no style keys) decodes, and
    /// encodes back to the very same bytes (the payload: the same keys and values).
    @Test func oldStrokesDecodeAndEncodeByteForByte() throws {
        let old = """
            {"author":"Anna","color":{"a":1,"b":0,"g":0,"r":1},"endedAt":1750000001,\
            "id":"6A1C0E7A-8A6B-4F44-9E33-2C3F2B0D4A11","segments":[1,1,2,2,3,3],"start":{"x":0,"y":0},\
            "startedAt":1750000000,"width":4}
            """
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        let stroke = try d.decode(Stroke.self, from: Data(old.utf8))
        #expect(stroke.isPlain)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.dateEncodingStrategy = .secondsSince1970
        #expect(String(decoding: try e.encode(stroke), as: UTF8.self) == old)

        let payload = """
            {"kind":"addStroke","id":"6a1c0e7a-8a6b-4f44-9e33-2c3f2b0d4a11","author":"Anna","color":[1,0,0,1],\
            "width":4,"start":[0,0],"segments":[1,1,2,2,3,3],"startedAt":1750000000000,"endedAt":1750000001000}
            """
        guard case .addStroke(let fromPayload)? = SketchOpPayload.decode(Data(payload.utf8)) else {
            Issue.record("an old payload must decode")
            return
        }
        #expect(fromPayload.isPlain)
        // The payload encoder keeps no key order; the same keys and values are what counts.
        let again = try JSONSerialization.jsonObject(with: SketchOpPayload.encode(.addStroke(fromPayload)))
        let original = try JSONSerialization.jsonObject(with: Data(payload.utf8))
        #expect((again as? NSDictionary) == (original as? NSDictionary))
    }

    @Test func stylesRoundTripThroughEveryEncoding() throws {
        let s = Self.styled()
        let d = JSONDecoder()
        #expect(try d.decode(Stroke.self, from: JSONEncoder().encode(s)) == s)
        #expect(SketchOpPayload.decode(try SketchOpPayload.encode(.addStroke(s))) == .addStroke(s))
        let file = try SketchFileFormat.decode(SketchFileFormat.encode(document([s])))
        #expect(file.strokes == [s])
        let text = try json(s)
        #expect(text.contains("\"blend\":\"multiply\"") && text.contains("\"fill\":0.5"))
        #expect(text.contains("\"widths\":[2,4.5,6]") && text.contains("\"dashes\":[6,3,0.5,3]"))
    }

    /// A blend mode of a newer version draws as ordinary ink here rather
    /// than making the whole stroke (or sync) fail.
    @Test func anUnknownBlendModeReadsAsOrdinaryInk() throws {
        var text = try json(Self.styled())
        text = text.replacingOccurrences(of: "\"multiply\"", with: "\"screen\"")
        let s = try JSONDecoder().decode(Stroke.self, from: Data(text.utf8))
        #expect(s.blend == nil && s.fill == 0.5)
        var payload = String(decoding: try SketchOpPayload.encode(.addStroke(Self.styled())), as: UTF8.self)
        payload = payload.replacingOccurrences(of: "\"multiply\"", with: "\"screen\"")
        guard case .addStroke(let p)? = SketchOpPayload.decode(Data(payload.utf8)) else {
            Issue.record("the payload must decode")
            return
        }
        #expect(p.blend == nil && p.widths == [2, 4.5, 6])
    }

    @Test func boundsCoverTheWidestPressureWidth() {
        var s = polylineStroke([Point(0, 0), Point(100, 0)], width: 2)
        s.widths = [20]
        #expect(s.maxWidth == 20)
        #expect(s.bounds.y <= -10 && s.bounds.maxY >= 10)
    }

    // MARK: - Limits

    private func refusal(_ edit: (inout Stroke) -> Void) throws -> SketchLimitError? {
        var s = Self.styled()
        edit(&s)
        // Files, the sync payload and direct checks all refuse it alike.
        var direct: SketchLimitError?
        do { try SketchValidation.check(s) } catch { direct = error }
        do {
            _ = try SketchFileFormat.decode(SketchFileFormat.encode(document([s])))
            Issue.record("a file with this stroke must be refused")
        } catch {
            guard case .outOfLimits(let why) = error else {
                Issue.record("expected outOfLimits, got \(error)")
                return direct
            }
            #expect(why == direct)
            #expect(error.errorDescription?.isEmpty == false)
        }
        #expect(direct?.errorDescription?.isEmpty == false)
        return direct
    }

    @Test func pressureWidthsMustBeOnePerSegmentAndPossible() throws {
        #expect(try refusal { $0.widths = [2, 3] } == .pressureWidths(stroke: 0, count: 2, segments: 3))
        #expect(try refusal { $0.widths = [2, 3, 4, 5] } == .pressureWidths(stroke: 0, count: 4, segments: 3))
        #expect(try refusal { $0.widths = [2, 1e12, 4] } == .penWidth(stroke: 0, value: 1e12))
        #expect(try refusal { $0.widths = [2, 0, 4] } == .penWidth(stroke: 0, value: 0))
        #expect(try refusal { $0.widths = [2, -3, 4] } == .penWidth(stroke: 0, value: -3))
        let why = try refusal { $0.widths = [2, 3] }
        #expect(why?.errorDescription == "Stroke 1 has 2 pressure widths for 3 pieces; it needs one per piece.")
    }

    @Test func fillOpacityMustLieBetweenZeroAndOne() throws {
        #expect(try refusal { $0.fill = 1.5 } == .fillOpacity(stroke: 0, value: 1.5))
        #expect(try refusal { $0.fill = -0.1 } == .fillOpacity(stroke: 0, value: -0.1))
        #expect(try refusal { $0.fill = 1e300 } == .fillOpacity(stroke: 0, value: 1e300))
    }

    @Test func dashPatternsAreCappedAndRangeChecked() throws {
        let long = [Double](repeating: 1, count: SketchLimits.maxDashes + 1)
        #expect(try refusal { $0.dashes = long } == .dashCount(stroke: 0, count: SketchLimits.maxDashes + 1))
        #expect(try refusal { $0.dashes = [] } == .dashCount(stroke: 0, count: 0))
        #expect(try refusal { $0.dashes = [0, 0] } == .dashPeriod(stroke: 0, total: 0))
        #expect(try refusal { $0.dashes = [0.04, 0.05] } == .dashPeriod(stroke: 0, total: 0.04 + 0.05))
        #expect(try refusal { $0.dashes = [6, -3] } == .dashLength(stroke: 0, value: -3))
        #expect(try refusal { $0.dashes = [6, 1e6] } == .dashLength(stroke: 0, value: 1e6))
        var ok = Self.styled()
        ok.dashes = [Double](repeating: 2, count: SketchLimits.maxDashes)
        try SketchValidation.check(ok)
        ok.dashes = [0, 3]
        try SketchValidation.check(ok)
    }

    /// NaN passes no range (`(a...b).contains(.nan)` is false).
    @Test func notANumberIsRefusedInEveryStyle() {
        for edit: (inout Stroke) -> Void in [{ $0.widths = [2, .nan, 4] }, { $0.fill = .nan }, { $0.dashes = [.nan, 3] },
                                             { $0.dashes = [.infinity, 3] }, { $0.widths = [2, .infinity, 4] }] {
            var s = Self.styled()
            edit(&s)
            #expect(throws: SketchLimitError.self) { try SketchValidation.check(s) }
        }
    }

    // MARK: - Xournal++

    @Test func xournalStylesImportAndExportBack() throws {
        let xml = """
            <xournal><page width="200" height="100"><layer>
            <stroke tool="pen" color="#ff0000ff" width="4 2 4 6">10 90 60 90 110 90 160 90</stroke>
            <stroke tool="pen" color="#00ff00ff" width="2" fill="128">20 70 60 70 40 95 20 70</stroke>
            <stroke tool="pen" color="#0000ffff" width="3" style="cust: 4 2 1 2">10 20 190 20</stroke>
            <stroke tool="highlighter" color="#ffff00ff" width="10 1 1">10 50 90 50 100 50</stroke>
            <stroke tool="pen" color="#000000ff" width="5 1 2 3 4 5">10 10 20 10</stroke>
            <stroke tool="pen" color="#000000ff" width="5 3">10 10 20 10 30 10</stroke>
            </layer></page></xournal>
            """
        let imp = try XoppFormat.parse(Array(xml.utf8))
        #expect(imp.leftOut == .nothing)
        let s = imp.strokes
        #expect(s[0].width == 4 && s[0].widths == [2, 4, 6])
        #expect(s[1].fill == 128.0 / 255)
        #expect(s[2].dashes == [4, 2, 1, 2])
        // Highlighters ignore pressure in Xournal++, and multiply.
        #expect(s[3].blend == .multiply && s[3].widths == nil && s[3].width == 10)
        #expect(s[3].color.a == XoppFormat.highlighterAlpha)
        // More pressure widths than segments: the first ones count; fewer:
        // a segment without one keeps the width before it (as Xournal++).
        #expect(s[4].widths == [1])
        #expect(s[5].widths == [3, 3])

        let xmlBack = String(decoding: XoppFormat.export(imp.document()), as: UTF8.self)
        #expect(xmlBack.contains("<stroke tool=\"pen\" color=\"#ff0000ff\" width=\"4 2 4 6\">"))
        #expect(xmlBack.contains("width=\"2\" fill=\"128\">"))
        #expect(xmlBack.contains("width=\"3\" style=\"cust: 4 2 1 2\">"))
        #expect(xmlBack.contains("<stroke tool=\"highlighter\" color=\"#ffff0078\" width=\"10\">"))
        let again = try XoppFormat.parse(XoppFormat.export(imp.document()))
        for (a, b) in zip(imp.strokes, again.strokes) {
            #expect(a.widths == b.widths && a.fill == b.fill && a.dashes == b.dashes && a.blend == b.blend)
            #expect(a.width == b.width && a.segments == b.segments)
        }
    }

    @Test func namedDashPatternsExportByName() throws {
        var strokes: [Stroke] = []
        for pattern in [XoppFormat.dashPattern, XoppFormat.dashDotPattern, XoppFormat.dotPattern] {
            var s = polylineStroke([Point(0, 0), Point(10, 0)])
            s.dashes = pattern
            strokes.append(s)
        }
        let xml = String(decoding: XoppFormat.export(document(strokes)), as: UTF8.self)
        #expect(xml.contains("style=\"dash\"") && xml.contains("style=\"dashdot\"") && xml.contains("style=\"dot\""))
        #expect(try XoppFormat.parse(Array(xml.utf8)).strokes.map(\.dashes) == strokes.map(\.dashes))
    }

    /// Custom patterns are written exactly: rounded to hundredths, a fine
    /// one could add up to less than the limit and not open again.
    @Test func finePatternsExportExactly() throws {
        var s = polylineStroke([Point(0, 0), Point(10, 0)])
        s.dashes = [0.004, 0.1, 1.005, 2.5]
        let xml = String(decoding: XoppFormat.export(document([s])), as: UTF8.self)
        #expect(xml.contains("style=\"cust: 0.004 0.1 1.005 2.5\""))
        #expect(try XoppFormat.parse(Array(xml.utf8)).strokes.first?.dashes == s.dashes)
    }

    /// A curve flattened into several points gives each piece its segment's width.
    @Test func pressureOnCurvesExportsAWidthPerPiece() throws {
        var s = buildStroke([Point(0, 0), Point(30, 40), Point(80, 10), Point(120, 60), Point(160, 0)], width: 3)
        s.widths = s.segments.indices.map { 1 + Double($0) }
        let xml = XoppFormat.export(document([s]))
        let back = try XoppFormat.parse(xml).strokes[0]
        let widths = try #require(back.widths)
        #expect(widths.count == back.segments.count)
        #expect(Set(widths).isSubset(of: Set(s.widths!)))
        #expect(widths == widths.sorted())
    }

    @Test func hostileXournalStylesAreRefusedWithAMessage() {
        func xoppRefusal(_ stroke: String) -> XoppError? {
            let xml = "<xournal><page width=\"100\" height=\"100\"><layer>\(stroke)</layer></page></xournal>"
            do { _ = try XoppFormat.parse(Array(xml.utf8)); return nil } catch { return error }
        }
        let manyDashes = "cust:" + String(repeating: " 1", count: 100_000)
        let cases: [(String, XoppError)] = [
            ("<stroke tool=\"pen\" color=\"#000000ff\" width=\"2\" fill=\"300\">0 0 9 9</stroke>",
             .outOfLimits(.fillOpacity(stroke: 0, value: 300.0 / 255))),
            ("<stroke tool=\"pen\" color=\"#000000ff\" width=\"2\" style=\"\(manyDashes)\">0 0 9 9</stroke>",
             .outOfLimits(.dashCount(stroke: 0, count: SketchLimits.maxDashes + 1))),
            ("<stroke tool=\"pen\" color=\"#000000ff\" width=\"2\" style=\"cust: 0 0\">0 0 9 9</stroke>",
             .outOfLimits(.dashPeriod(stroke: 0, total: 0))),
            ("<stroke tool=\"pen\" color=\"#000000ff\" width=\"2\" style=\"cust: 5 -2\">0 0 9 9</stroke>",
             .outOfLimits(.dashLength(stroke: 0, value: -2))),
            ("<stroke tool=\"pen\" color=\"#000000ff\" width=\"2 5000\">0 0 9 9</stroke>",
             .outOfLimits(.penWidth(stroke: 0, value: 5000))),
        ]
        for (stroke, expected) in cases {
            let error = xoppRefusal(stroke)
            #expect(error == expected, "\(stroke.prefix(120))")
            #expect(error?.errorDescription?.isEmpty == false)
        }
        guard case .malformed(_, let reason)? = xoppRefusal(
            "<stroke tool=\"pen\" color=\"#000000ff\" width=\"2 x\">0 0 9 9</stroke>") else {
            Issue.record("a pressure width that is no number is damage")
            return
        }
        #expect(reason == "stroke without a valid width")
    }

    /// Xournal++ 1.0.x wrote pressure strokes with points of zero, negative
    /// or "nan" pressure; Xournal++ 1.1.3 opens them by leaving those points
    /// out and splitting the stroke where they were (its stroke width
    /// recovery tests). So do we, and the import report says so.
    @Test func strokesWithPointsOfNoPressureAreMendedAsXournalppMendsThem() throws {
        func stroke(_ widths: String, points: Int) -> String {
            "<stroke tool=\"pen\" color=\"#00ff00ff\" width=\"\(widths)\">"
                + (0..<points).map { "\(10 * $0) \(5 * $0)" }.joined(separator: " ") + "</stroke>"
        }
        let xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Xournal++ 1.0.7" fileversion="4"><page width="600" height="800">
            <background type="solid" color="#ffffffff" style="plain"/><layer>
            \(stroke("1.41 0.16 0.16 0.2 0.22 0.26 0.14 -0.1", points: 8))
            \(stroke("1.41 0.16 0 0.28 0.3 0.34 0 0 0.16", points: 9))
            \(stroke("1.41 0.2 0.3 nan 0.25 0.3 NaN", points: 7))
            \(stroke("1.41 0 0 -2", points: 4))
            \(stroke("1.41 0.1 0.2 0.3 0.4 0.5 0.6", points: 3))
            </layer></page></xournal>
            """
        let imp = try XoppFormat.parse(Data(xml.utf8))
        let p = { (k: Int) in Point(Double(10 * k), Double(5 * k)) }
        func ends(_ s: Stroke) -> (Point, Point) { (s.start, s.segments.last?.end ?? s.start) }
        // The first: its last point's pressure was negative; the rest stays.
        // The second in three pieces, the third in two, the fourth (no good
        // pressure at all) left out; the last has more widths than
        // segments, the first ones count, untouched.
        #expect(imp.strokes.map { $0.widths ?? [] } == [
            [0.16, 0.16, 0.2, 0.22, 0.26, 0.14],
            [0.16], [0.28, 0.3, 0.34], [0.16],
            [0.2, 0.3], [0.25, 0.3],
            [0.1, 0.2],
        ])
        let pieces = imp.strokes.map(ends)
        #expect(pieces[0] == (p(0), p(6)))
        #expect(pieces[1] == (p(0), p(1)) && pieces[2] == (p(2), p(5)) && pieces[3] == (p(7), p(8)))
        #expect(pieces[4] == (p(0), p(2)) && pieces[5] == (p(3), p(5)))
        #expect(imp.strokes.allSatisfy { $0.width == 1.41 && $0.color == RGBA(r: 0, g: 1, b: 0) })
        #expect(imp.leftOut.mendedPressure == 4 && imp.leftOut.unknownColors == 0)
    }
}
