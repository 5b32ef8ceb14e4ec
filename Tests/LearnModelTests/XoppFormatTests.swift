import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnSketch

@Suite struct XoppFormatTests {
    /// Written the way Xournal++ 1.1.x writes files, plus what older Xournal
    /// files and hand edits bring: named colours, pressure widths, texts,
    /// images, a second page, attributes in any order and quote style.
    static let xournalSample = """
        <?xml version="1.0" standalone="no"?>
        <!-- saved by hand for the tests -->
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <title>Xournal++ document - see https://github.com/xournalpp/xournalpp</title>
        <preview>iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==</preview>
        <page width="595.27559100" height="841.88976400">
        <background type="solid" color="#ffffffff" style="graph"/>
        <layer name="Ink">
        <stroke tool="pen" ts="0" fn="" color="#ff0000ff" width="1.41000000">10.00000000 20.00000000 30.50000000 40.25000000 50.00000000 60.00000000</stroke>
        <stroke color="blue" width="2.26 2.00 3.00" tool="pen">100 100 110 105 120 112</stroke>
        <stroke width='0.85' color='lightgreen' tool='pen' fn="audio.mp3" ts="12345">1e2 2.5E1 101.5 26</stroke>
        <text font="Sans" size="12.00000000" x="100.00000000" y="200.00000000" color="#000000ff" ts="0" fn="">Hallo &amp; tschüss</text>
        <stroke tool="highlighter" color="#ffff00ff" width="8.50000000">200 300 250 300</stroke>
        <stroke tool="eraser" color="white" width="5.00">1 1 2 2</stroke>
        <image left="10.0" top="10.0" right="60.0" bottom="60.0">iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==</image>
        </layer>
        <layer>
        <teximage text="$x &gt; 1$" texlength="7" left="1" top="2" right="3" bottom="4">iVBORw0KGgo=</teximage>
        <stroke tool="pen" color="orange" width="3">300.5 400.5 300.5 400.5</stroke>
        <stroke tool="pen" color="#00000080" width="1.00">5 5 5.01 5</stroke>
        <stroke tool="pen" color="gray" width="2">7 7</stroke>
        </layer>
        </page>
        <page width="595.27559100" height="841.88976400">
        <background type="pixmap" domain="absolute" filename="/tmp/bg.png"/>
        <layer>
        <stroke tool="pen" color="black" width="1.41">1 2 3 4</stroke>
        <text font="Sans" size="12" x="1" y="2" color="#000000ff">second page</text>
        </layer>
        </page>
        </xournal>
        """

    @Test func importsARealXournalDocument() throws {
        let imp = try XoppFormat.parse(Array(Self.xournalSample.utf8), author: "Xournal++", date: sketchDate(7))
        #expect(imp.title == "Xournal++ document - see https://github.com/xournalpp/xournalpp")
        #expect(abs(imp.pageWidth - 595.275591) < 1e-9 && abs(imp.pageHeight - 841.889764) < 1e-9)
        #expect(imp.guides == .squared)
        #expect(imp.skippedPages == 1)
        #expect(imp.skippedTexts == 1)
        #expect(imp.skippedImages == 1)
        #expect(imp.skippedTeX == 1)
        #expect(imp.unknownColors == 0)
        #expect(imp.warningCount == 4)
        #expect(imp.leftOut == ImportLeftOut(pages: 1, texts: 1, images: 1, texFormulas: 1))
        #expect(imp.strokes.count == 8)
        #expect(imp.strokes.allSatisfy { $0.author == "Xournal++" && $0.startedAt == sketchDate(7) })

        let red = imp.strokes[0]
        #expect(red.color == RGBA(r: 1, g: 0, b: 0))
        #expect(red.width == 1.41)
        #expect(red.start == Point(10, 20))
        #expect(red.segments == [.line(from: Point(10, 20), to: Point(30.5, 40.25)),
                                 .line(from: Point(30.5, 40.25), to: Point(50, 60))])

        // Pressure widths: the nominal width, and one width per segment.
        let blue = imp.strokes[1]
        #expect(blue.color == RGBA(hex: 0x3333CC))
        #expect(blue.width == 2.26)
        #expect(blue.widths == [2, 3])
        #expect(blue.segments.map(\.end) == [Point(110, 105), Point(120, 112)])

        let green = imp.strokes[2]
        #expect(green.color == RGBA(hex: 0x00FF00))
        #expect(green.start == Point(100, 25) && green.segments.map(\.end) == [Point(101.5, 26)])

        let highlighter = imp.strokes[3]
        #expect(highlighter.color == RGBA(r: 1, g: 1, b: 0, a: XoppFormat.highlighterAlpha))
        #expect(highlighter.width == 8.5)
        #expect(highlighter.blend == .multiply)

        // Whiteout: ink in its own colour, as Xournal++ draws it.
        let whiteout = imp.strokes[4]
        #expect(whiteout.color == RGBA.white && whiteout.width == 5)

        // Two equal points: Xournal++'s dot, radius half its width.
        let orange = imp.strokes[5]
        #expect(orange.isDot && orange.start == Point(300.5, 400.5) && orange.width == 1.5)
        #expect(orange.color == RGBA(hex: 0xFF8000))

        let translucent = imp.strokes[6]
        #expect(translucent.isDot && abs(translucent.color.a - 128.0 / 255) < 1e-12)

        let single = imp.strokes[7]
        #expect(single.isDot && single.start == Point(7, 7) && single.color == RGBA(hex: 0x808080))
    }

    /// Xournal++'s filled shapes and line styles come across as the
    /// stroke's fill and dash pattern; nothing is left out.
    @Test func fillsAndDashPatternsAreImported() throws {
        let xml = """
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="#00ff00ff" width="2" fill="128">20 70 60 70 40 95 20 70</stroke>
            <stroke tool="pen" color="#00ff00ff" width="2" fill="-1">0 0 10 10</stroke>
            <stroke tool="pen" color="#0000ffff" width="4" style="dash">10 20 90 20</stroke>
            <stroke tool="pen" color="#0000ffff" width="4" style="cust: 1 2">10 30 90 30</stroke>
            <stroke tool="pen" color="#0000ffff" width="4" style="plain">10 40 90 40</stroke>
            <stroke tool="highlighter" color="#ffff00ff" width="4" fill="255" style="dot">10 50 90 50</stroke>
            <stroke tool="pen" color="#0000ffff" width="4" style="dashdot">10 60 90 60</stroke>
            <stroke tool="pen" color="#0000ffff" width="4" style="wavy">10 60 90 60</stroke>
            </layer></page></xournal>
            """
        let imp = try XoppFormat.parse(Array(xml.utf8))
        #expect(imp.strokes.count == 8)
        #expect(imp.leftOut == .nothing)
        let s = imp.strokes
        #expect(s[0].segments.map(\.end) == [Point(60, 70), Point(40, 95), Point(20, 70)])
        #expect(s[0].fill == 128.0 / 255 && s[0].dashes == nil && s[0].blend == nil)
        #expect(s[1].fill == nil && s[1].isPlain)
        #expect(s[2].dashes == [6, 3] && s[2].fill == nil)
        #expect(s[3].dashes == [1, 2])
        #expect(s[4].isPlain)
        #expect(s[5].fill == 1 && s[5].dashes == [0.5, 3] && s[5].blend == .multiply)
        #expect(s[6].dashes == [6, 3, 0.5, 3])
        // A style Xournal++ does not know it draws solid; so do we.
        #expect(s[7].isPlain)
    }

    @Test func allNamedColoursAreKnown() throws {
        let names = ["black", "blue", "red", "green", "gray", "lightblue", "lightgreen", "magenta", "orange",
                     "yellow", "white"]
        let strokes = names.map { "<stroke tool=\"pen\" color=\"\($0)\" width=\"1\">0 0 10 10</stroke>" }
        let xml = "<xournal><page width=\"100\" height=\"100\"><layer>\(strokes.joined())</layer></page></xournal>"
        let imp = try XoppFormat.parse(Array(xml.utf8))
        #expect(imp.unknownColors == 0)
        #expect(imp.strokes.map(\.color) == [0x000000, 0x3333CC, 0xFF0000, 0x008000, 0x808080, 0x00C0FF, 0x00FF00,
                                             0xFF00FF, 0xFF8000, 0xFFFF00, 0xFFFFFF].map { RGBA(hex: $0) })
    }

    @Test func unknownColoursBecomeBlackWithAWarning() throws {
        let xml = """
            <xournal><page width="10" height="10"><layer>
            <stroke tool="pen" color="chartreuse" width="1">0 0 1 1</stroke>
            <stroke tool="pen" color="#12345" width="1">0 0 1 1</stroke>
            </layer></page></xournal>
            """
        let imp = try XoppFormat.parse(Array(xml.utf8))
        #expect(imp.unknownColors == 2)
        #expect(imp.strokes.allSatisfy { $0.color == RGBA(r: 0, g: 0, b: 0) })
    }

    @Test func exportWritesXournalXML() {
        let line = polylineStroke([Point(10, 20), Point(30.456, 40.004)], width: 6, color: PenColor.red.rgba)
        let dot = Stroke(author: "a", color: RGBA(r: 0, g: 0, b: 1, a: 0.5), width: 7, start: Point(-1.005, 3),
                         segments: [], startedAt: sketchDate(0), endedAt: sketchDate(0))
        let meta = SketchMeta(name: "Tiere & \"Pflanzen\" <3", guides: .lined)
        let doc = SketchDocument(meta: meta, ops: [.addStroke(line), .addStroke(dot)])
        let xml = String(decoding: XoppFormat.export(doc), as: UTF8.self)
        #expect(xml == """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Teamsketch Desktop" fileversion="4">
            <title>Tiere &amp; &quot;Pflanzen&quot; &lt;3</title>
            <page width="1600" height="1000">
            <background type="solid" color="#ffffffff" style="lined"/>
            <layer>
            <stroke tool="pen" color="#e3201bff" width="6">10 20 30.46 40</stroke>
            <stroke tool="pen" color="#0000ff80" width="14">-1 3 -1 3</stroke>
            </layer>
            </page>
            </xournal>

            """)
    }

    @Test func exportBackgroundStyles() throws {
        for (guides, style) in [(LineGuides.none, "plain"), (.squared, "graph"), (.lined, "lined")] {
            let doc = SketchDocument(meta: SketchMeta(name: "x", guides: guides))
            let xml = String(decoding: XoppFormat.export(doc), as: UTF8.self)
            #expect(xml.contains("style=\"\(style)\""))
            #expect(try XoppFormat.parse(XoppFormat.export(doc)).guides == guides)
        }
    }

    @Test func polylineRoundTripKeepsColoursWidthsAndPoints() throws {
        let doc = SketchGenerator(seed: 12).document(strokes: 300, pointsPerStroke: 40, shape: .polyline,
                                                      name: "Runde", guides: .squared)
        let imp = try XoppFormat.parse(XoppFormat.export(doc), author: "Import", date: sketchDate(1))
        #expect(imp.title == "Runde" && imp.guides == .squared)
        #expect(imp.pageWidth == 1600 && imp.pageHeight == 1000)
        #expect(imp.warningCount == 0)
        #expect(imp.strokes.count == doc.strokes.count)
        for (a, b) in zip(doc.strokes, imp.strokes) {
            #expect(abs(a.width - b.width) <= 0.005)
            let pairs = [(a.color.r, b.color.r), (a.color.g, b.color.g), (a.color.b, b.color.b), (a.color.a, b.color.a)]
            for (x, y) in pairs { #expect(abs(x - y) <= 0.5 / 255 + 1e-12) }
            #expect(a.segments.count == b.segments.count)
            #expect(a.start.distance(to: b.start) <= 0.01)
            for (s, t) in zip(a.segments, b.segments) {
                #expect(s.end.distance(to: t.end) <= 0.01)
            }
        }
    }

    @Test func smoothedRoundTripStaysOnTheCurveAndIsStable() throws {
        let doc = SketchGenerator(seed: 13).document(strokes: 100, pointsPerStroke: 50)
        let first = XoppFormat.export(doc)
        let imp = try XoppFormat.parse(first)
        for (a, b) in zip(doc.strokes, imp.strokes) {
            let dense = a.flattened(tolerance: 0.02)
            #expect(a.color == b.color || abs(a.color.r - b.color.r) < 0.002)
            for p in b.flattened() {
                #expect(distance(from: p, toPolyline: dense) <= 0.03)
            }
            #expect(b.segments.last?.end.distance(to: a.segments.last!.end) ?? 1 <= 0.01)
        }
        // Exporting the import again gives the very same bytes.
        let again = XoppFormat.export(imp.document(name: doc.meta.name))
        #expect(again == first)
    }

    @Test func dotsStayDots() throws {
        let doc = SketchGenerator(seed: 14).document(strokes: 20, pointsPerStroke: 1)
        let imp = try XoppFormat.parse(XoppFormat.export(doc))
        #expect(imp.strokes.count == 20)
        for (a, b) in zip(doc.strokes, imp.strokes) {
            #expect(b.isDot)
            #expect(b.width == a.width)
            #expect(a.start.distance(to: b.start) <= 0.01)
        }
        // A short stroke is not a dot.
        let short = polylineStroke([Point(5, 5), Point(5.4, 5)], width: 4)
        let back = try XoppFormat.parse(XoppFormat.export(SketchDocument(meta: SketchMeta(name: "s"),
                                                                        ops: [.addStroke(short)])))
        #expect(back.strokes.first?.isDot == false)
    }

    @Test func documentAndScaling() throws {
        let imp = try XoppFormat.parse(Array(Self.xournalSample.utf8), date: sketchDate(0))
        let doc = imp.document(createdAt: sketchDate(1))
        #expect(doc.meta.name == imp.title && doc.meta.guides == .squared)
        #expect(doc.strokes.count == imp.strokes.count)
        let fitted = imp.scaled(toFit: 1600, height: 1000)
        let k = 1000 / imp.pageHeight
        #expect(fitted.pageWidth == 1600 && fitted.pageHeight == 1000)
        #expect(abs(fitted.strokes[0].width - imp.strokes[0].width * k) < 1e-9)
        let xOffset = (1600 - imp.pageWidth * k) / 2
        #expect(abs(fitted.strokes[0].start.x - (10 * k + xOffset)) < 1e-9)
        #expect(abs(fitted.strokes[0].start.y - 20 * k) < 1e-9)
        for s in fitted.strokes { #expect(s.bounds.x >= 0 && s.bounds.maxX <= 1600) }
    }

    @Test func foreignFilesAreNotXournal() {
        let foreign = ["", "   \n", "hello", "<html><body>hi</body></html>", "{\"format\":\"teamsketch\"}",
                       "<?xml version=\"1.0\"?><svg></svg>", "<!-- only a comment -->"]
        for text in foreign {
            #expect(throws: XoppError.notXournal) { try XoppFormat.parse(Array(text.utf8)) }
        }
        #expect(throws: XoppError.notXournal) { try XoppFormat.parse([0x89, 0x50, 0x4E, 0x47, 0, 0xFF]) }
        #expect(throws: XoppError.gzipCompressed) { try XoppFormat.parse([0x1F, 0x8B, 8, 0, 0, 0]) }
    }

    @Test(arguments: [
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\">\n<layer>\n<stroke tool=\"pen\" color=\"red\" width=\"1\">1 2 x 4</stroke>",
                      line: 4, reason: "bad coordinate"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\">\n<layer>\n\n<stroke tool=\"pen\" color=\"red\" width=\"1\">1 2 3</stroke></layer></page></xournal>",
                      line: 5, reason: "odd number"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\">\n<layer>\n<stroke tool=\"pen\" color=\"red\">1 2 3 4</stroke></layer></page></xournal>",
                      line: 4, reason: "width"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\">\n<layer>\n</page></xournal>",
                      line: 4, reason: "closes"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\">\n<layer>\n<stroke tool=\"pen\" color=\"red\" width=\"1\">1 2 3 4",
                      line: 4, reason: "ends inside"),
        MalformedCase("<xournal>\n<title>x</title>\n</xournal>",
                      line: 3, reason: "no page"),
        MalformedCase("<xournal>\n<page width=\"wide\" height=\"1\"></page></xournal>",
                      line: 2, reason: "width and height"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\"><layer><stroke tool=\"pen\" color=\"red\" width=\"1\">1 2 1.2.3 4</stroke></layer></page></xournal>",
                      line: 2, reason: "bad coordinate"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\"><layer><stroke tool=\"pen\" color=\"red\" width=\"1\">1 2<b/>3 4</stroke></layer></page></xournal>",
                      line: 2, reason: "other than points"),
        MalformedCase("<xournal>\n<page width=\"1\" height=\"1\"><layer a=\"1></layer></page></xournal>",
                      line: 2, reason: "ends inside a tag"),
    ])
    func malformedDocumentsNameLineAndReason(_ c: MalformedCase) {
        let line = c.line, reason = c.reason
        do {
            _ = try XoppFormat.parse(Array(c.xml.utf8))
            Issue.record("parsed malformed XML")
        } catch {
            guard case .malformed(let l, let why) = error else {
                Issue.record("expected malformed, got \(error)")
                return
            }
            #expect(l == line, "\(why)")
            #expect(why.contains(reason))
            #expect(error.errorDescription?.contains("line \(line)") == true)
        }
    }

    @Test func toleratesXMLNoise() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xournal [ <!ENTITY x "y"> ]>
            <xournal creator="x" fileversion = '4' >
            <title><![CDATA[A <b> title]]> &amp; more &#x263A; &#65;</title>
            <page height="50" width="60" >
              <!-- comment with <stroke> inside -->
              <background style="ruled" type="solid" color="#ffffffff" />
              <layer>
                <stroke
                  width = "2" color="#0000ffff"  tool="pen"
                >  1 2
                   3 4\t5 6  </stroke>
                <stroke tool="pen" color="red" width="1"/>
                <stroke tool="pen" color="red" width="1"></stroke>
                <unknownElement attr="a > b">text</unknownElement>
              </layer>
            </page>
            </xournal>
            trailing junk is ignored
            """
        let imp = try XoppFormat.parse(Array(xml.utf8))
        #expect(imp.title == "A <b> title & more ☺ A")
        #expect(imp.pageWidth == 60 && imp.pageHeight == 50 && imp.guides == .lined)
        #expect(imp.strokes.count == 1)
        #expect(imp.strokes[0].start == Point(1, 2) && imp.strokes[0].segments.map(\.end) == [Point(3, 4), Point(5, 6)])
    }

    @Test func randomDamageNeverCrashes() {
        let good = Array(Self.xournalSample.utf8)
        var rng = SplitMix64(seed: 31)
        var failures = 0
        for _ in 0..<400 {
            var bytes = good
            for _ in 0..<(1 + rng.nextInt(below: 3)) {
                let i = rng.nextInt(below: bytes.count)
                switch rng.nextInt(below: 4) {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + 1 + rng.nextInt(below: 30)))
                case 2: bytes.insert(Array("<>\"\0".utf8)[rng.nextInt(below: 4)], at: i)
                default: bytes = Array(bytes.prefix(i))
                }
                if bytes.isEmpty { break }
            }
            do { _ = try XoppFormat.parse(bytes) } catch { failures += 1 }
        }
        #expect(failures > 50)
    }

    @Test func numberParserHandlesXournalNumbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("12", 12), ("12.5", 12.5), ("-3.25", -3.25), ("+7", 7), (".5", 0.5),
            ("5.", 5), ("1e3", 1000), ("2.5E-2", 0.025), ("123.45678900", 123.456789),
            ("0.1", 0.1), ("1234567890123456789012", 1.234567890123456789012e21),
            ("0.000000000000000000000000001", 1e-27), ("3.14159265358979323846264338327950288", Double.pi),
        ]
        for (text, expected) in cases {
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { DecimalParser.numbers(in: $0, 0..<$0.count) }
            #expect(parsed == [expected], "\(text)")
            #expect(parsed?.first.map { $0 == Double(text) } ?? false, "\(text) not correctly rounded")
        }
        for bad in ["-", ".", "e5", "1e", "1.2.3", "12px", "nan", "inf", "0x10"] {
            let bytes = Array(bad.utf8)
            #expect(bytes.withUnsafeBufferPointer { DecimalParser.numbers(in: $0, 0..<$0.count) } == nil, "\(bad)")
        }
    }

    @Test func largeDocumentRoundTrip() throws {
        // The benchmark's shape at a tenth of the size: structure, not timing.
        let doc = SketchGenerator(seed: 1).document(strokes: 500, pointsPerStroke: 60, shape: .polyline)
        let imp = try XoppFormat.parse(XoppFormat.export(doc))
        #expect(imp.strokes.count == 500)
        #expect(imp.strokes.reduce(0) { $0 + $1.segments.count + 1 } == 30_000)
        #expect(Set(imp.strokes.map(\.id)).count == 500)
    }
}

struct MalformedCase: Sendable, CustomTestStringConvertible {
    var xml: String
    var line: Int
    var reason: String
    init(_ xml: String, line: Int, reason: String) { self.xml = xml; self.line = line; self.reason = reason }
    var testDescription: String { reason }
}
