import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// Against the real thing: Debian's Xournal++ reads what we write, and what
/// Xournal++ 1.1.3 writes imports with its strokes, colours and widths.
@Suite struct XournalppCompatibilityTests {
    /// A page exactly as Xournal++ 1.1.3 saves it (gzip around this XML):
    /// 8-decimal numbers, a preview PNG, pressure widths (nominal width first,
    /// then one per segment), a highlighter at alpha 0x7f, a text, a named
    /// layer, a tap (two equal points) and a second page.
    static let xournal113 = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <title>Xournal++ document - see https://github.com/xournalpp/xournalpp</title>
        <preview>iVBORw0KGgoAAAANSUhEUgAAAAQAAAAGCAIAAABrW6giAAAAD0lEQVR4nGP4jwQYKOUAAO3sR7nBPlyIAAAAAElFTkSuQmCC</preview>
        <page width="595.27559055" height="841.88976378">
        <background type="solid" color="#ffffffff" style="graph"/>
        <layer>
        <stroke tool="pen" color="#ff0000ff" width="2.26771654">72.00000000 72.00000000 144.00000000 108.00000000 216.00000000 72.00000000</stroke>
        <stroke tool="pen" color="#3333ccff" width="1.41732283 0.85039370 1.13385827 1.27559055">300.50000000 400.25000000 310.75000000 405.00000000 320.00000000 410.12500000 330.00000000 420.00000000</stroke>
        <stroke tool="highlighter" color="#ffff007f" width="8.50393701">100.00000000 600.00000000 400.00000000 600.00000000</stroke>
        <text font="Sans" size="12.00000000" x="100.00000000" y="700.00000000" color="#000000ff">Hallo Klasse</text>
        </layer>
        <layer name="Ebene 2">
        <stroke tool="pen" color="#008000ff" width="5.66929134">500.00000000 500.00000000 500.00000000 500.00000000</stroke>
        </layer>
        </page>
        <page width="595.27559055" height="841.88976378">
        <background type="solid" color="#ffffffff" style="lined"/>
        <layer>
        <stroke tool="pen" color="#000000ff" width="1.41732283">10.00000000 10.00000000 20.00000000 20.00000000</stroke>
        </layer>
        </page>
        </xournal>

        """

    @Test func fileWrittenByXournalpp113Imports() async throws {
        let dir = TempDir()
        let path = dir.file("Klassenarbeit.xopp")
        try FileBytes.write(Gzip.compress(Array(Self.xournal113.utf8)), to: path)

        let imported = try XoppFile.importing(FileBytes.read(path), path: path)
        #expect(imported.skippedPages == 1)
        #expect(imported.skippedTexts == 1)

        let doc = try SketchImport.read(path)
        #expect(doc.meta.name == "Klassenarbeit")
        #expect(doc.meta.guides == .squared)
        #expect(abs(doc.meta.width - 595.27559055) < 1e-9 && abs(doc.meta.height - 841.88976378) < 1e-9)
        try #require(doc.strokes.count == 4)

        let red = doc.strokes[0]
        #expect(red.color == RGBA(r: 1, g: 0, b: 0, a: 1))
        #expect(abs(red.width - 2.26771654) < 1e-9)
        #expect(red.start == Point(72, 72))
        #expect(red.segments.map(\.end) == [Point(144, 108), Point(216, 72)])

        let blue = doc.strokes[1]
        #expect(blue.color == RGBA(hex: 0x3333CC))
        #expect(blue.segments.count == 3)
        #expect(blue.segments.last?.end == Point(330, 420))
        #expect((0.85...1.42).contains(blue.width), "a pressure stroke keeps a width within its range")

        let highlighter = doc.strokes[2]
        #expect(highlighter.color.r == 1 && highlighter.color.g == 1 && highlighter.color.b == 0)
        #expect(highlighter.color.a < 1, "a highlighter stays translucent")
        #expect(abs(highlighter.width - 8.50393701) < 1e-9)

        let tap = doc.strokes[3]
        #expect(tap.isDot)
        #expect(tap.start == Point(500, 500))
        #expect(tap.color == RGBA(hex: 0x008000))
    }

    @Test func importedXournalppPageRendersItsInk() async throws {
        let dir = TempDir()
        let path = dir.file("x.xopp")
        try FileBytes.write(Gzip.compress(Array(Self.xournal113.utf8)), to: path)
        let doc = try SketchImport.read(path)
        // 595 pt wide page at 1190 px: 2 px per point.
        let image = try SketchExport.image(of: doc, width: 1190)
        #expect(image.height == 1683)
        let onRed = image.pixel(x: 216, y: 180)  // (108, 90): the middle of the first red piece
        #expect((onRed.r, onRed.g, onRed.b) == (255, 0, 0))
        let blank = image.pixel(x: 1000, y: 1500)
        #expect((blank.r, blank.g, blank.b) == (255, 255, 255))
    }

    @Test func xournalppOpensOurFileAndExportsIt() async throws {
        guard let xournalpp = Run.which("xournalpp") else {
            Issue.record("xournalpp is not installed (apt-get install xournalpp); it is the real reader this test needs")
            return
        }
        let dir = TempDir()
        let ours = dir.file("ours.xopp"), pdf = dir.file("out.pdf"), png = dir.file("out.png")
        try SketchExport.write(Fixture.sketch(), to: ours)

        let toPDF = try await Self.runXournalpp(xournalpp, ["--create-pdf=\(pdf)", ours])
        #expect(toPDF.status == 0, "xournalpp --create-pdf failed: \(toPDF.stderr)")
        let pdfBytes = try FileBytes.read(pdf)
        #expect(pdfBytes.hasPrefix("%PDF-"))

        // The same page without ink, through the same reader: ours must hold more.
        let blank = dir.file("blank.xopp"), blankPDF = dir.file("blank.pdf")
        try SketchExport.write(SketchDocument(meta: Fixture.sketch().meta), to: blank)
        let toBlank = try await Self.runXournalpp(xournalpp, ["--create-pdf=\(blankPDF)", blank])
        #expect(toBlank.status == 0, "xournalpp --create-pdf failed: \(toBlank.stderr)")
        let blankBytes = try FileBytes.read(blankPDF)
        #expect(pdfBytes.count > blankBytes.count + 150,
                "the PDF of our strokes (\(pdfBytes.count) bytes) is no bigger than an empty page's (\(blankBytes.count))")

        // Its own raster export shows our red line where we drew it, and white elsewhere.
        let toPNG = try await Self.runXournalpp(xournalpp, ["--create-img=\(png)", "--export-png-width=1600", ours])
        #expect(toPNG.status == 0, "xournalpp --create-img failed: \(toPNG.stderr)")
        let image = try CairoImage(png: FileBytes.read(png))
        #expect(image.width == 1600)
        let onRed = image.pixel(x: 600, y: 300)
        #expect(onRed.r > 200 && onRed.g < 60 && onRed.b < 60, "red line missing: \(onRed)")
        let onDot = image.pixel(x: 1400, y: 800)
        #expect(onDot.g > onDot.r && onDot.g > onDot.b, "green dot missing: \(onDot)")
        let paper = image.pixel(x: 1210, y: 150)
        #expect(paper.r > 200 && paper.g > 200, "nothing is drawn far from the ink: \(paper)")
    }

    /// Xournal++ 1.1.3 exports without a display; should a build need one,
    /// a virtual one is used when none is set.
    static func runXournalpp(_ xournalpp: String, _ arguments: [String]) async throws -> ProcessResult {
        let first = try await Run.program(xournalpp, arguments)
        let hasDisplay = ProcessInfo.processInfo.environment["DISPLAY"].map { !$0.isEmpty } ?? false
        guard first.status != 0, !hasDisplay, let xvfbRun = Run.which("xvfb-run") else { return first }
        return try await Run.program(xvfbRun, ["-a", xournalpp] + arguments)
    }
}
