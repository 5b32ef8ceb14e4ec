import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// Xournal++ features we import, against Xournal++ 1.1.3 drawing them.
extension XournalppCompatibilityTests {
    /// What we import of Xournal++'s own features looks as Xournal++ 1.1.3
    /// draws it: a whiteout (eraser) stroke across ink, a highlighter on
    /// paper, a pressure stroke (Tests/xopp/features.xopp). Both render the
    /// page at 800 px; pixels may differ only along edges (anti-aliasing).
    @Test func whiteoutHighlighterAndPressureLookAsInXournalpp() async throws {
        guard let (theirs, ours) = try await Self.bothRenderings(of: "features.xopp") else { return }
        func same(_ x: Double, _ y: Double, _ what: String) { Self.expectSame(theirs, ours, x, y, what) }
        same(30, 50, "ink")
        same(50, 50, "whiteout over ink")
        same(50, 20, "whiteout on paper")
        same(150, 20, "highlighter on paper")
        // Widths 2, 4, 6 on the segments from x = 10, 60, 110.
        same(35, 90, "pressure stroke, on its 2-wide piece")
        same(35, 91.5, "pressure stroke, beside its 2-wide piece")
        same(135, 92.5, "pressure stroke, inside its 6-wide piece")
        same(135, 93.5, "pressure stroke, beside its 6-wide piece")
        same(100, 5, "paper")
        Self.expectEdgesOnly(theirs, ours)
    }

    /// A filled shape, a highlighter over ink, a pressure stroke and two
    /// dashed lines (Tests/xopp/styles.xopp), drawn by Xournal++ 1.1.3 and
    /// by us. Debian's 1.1.3 draws all four (its StrokeView fills, strokes
    /// pressure pieces one by one, multiplies highlighters and sets Cairo's
    /// dashes), so all four are compared with it directly.
    @Test func fillPressureHighlighterAndDashesLookAsInXournalpp() async throws {
        guard let (theirs, ours) = try await Self.bothRenderings(of: "styles.xopp") else { return }
        func same(_ x: Double, _ y: Double, _ what: String) { Self.expectSame(theirs, ours, x, y, what) }
        // Fill: the triangle 20,20 – 70,20 – 45,60 in green at alpha 128.
        same(45, 35, "inside the filled triangle")
        same(45, 20, "the filled triangle's outline")
        same(80, 35, "beside the filled triangle")
        let fill = ours.pixel(x: 45 * 4, y: 35 * 4)
        #expect(fill.g > 200 && fill.r > 100 && fill.r < 160, "the fill is half-transparent green: \(fill)")
        // Highlighter (yellow, x = 145) across black ink (y = 40): multiplied.
        same(145, 40, "highlighter over black ink")
        same(145, 25, "highlighter on paper")
        same(120, 40, "black ink")
        let over = ours.pixel(x: 145 * 4, y: 40 * 4)
        #expect(over.r < 10 && over.g < 10 && over.b < 10, "yellow multiplied onto black stays black: \(over)")
        // Pressure: widths 2, 6, 10 from x = 10, 70, 130 at y = 85.
        same(40, 85, "pressure piece 2 wide")
        same(40, 86.6, "beside the piece 2 wide")
        same(100, 87.5, "inside the piece 6 wide")
        same(100, 88.6, "beside the piece 6 wide")
        same(160, 89.5, "inside the piece 10 wide")
        same(160, 90.6, "beside the piece 10 wide")
        // Dashes "dash" (6 on, 3 off, width 4) and "cust: 10 5" (width 3)
        // from x = 10: the custom one's gaps lie at 20–25, 35–40, …
        same(13, 110, "a dash")
        same(15, 128, "a custom dash")
        same(22.5, 128, "a custom dash's gap")
        same(37.5, 128, "the next gap")
        same(187.5, 128, "the last gap")
        let gap = ours.pixel(x: Int(97.5 * 4), y: 128 * 4)
        #expect(gap.r > 240 && gap.b > 240, "the custom pattern leaves paper between its dashes: \(gap)")
        Self.expectEdgesOnly(theirs, ours)
    }

    // MARK: - Helpers

    /// `name` (in Tests/xopp) rendered at 800 px by xournalpp and by us;
    /// nil (with an issue) when xournalpp is missing.
    static func bothRenderings(of name: String) async throws -> (theirs: CairoImage, ours: CairoImage)? {
        guard let xournalpp = Run.which("xournalpp") else {
            Issue.record("xournalpp is not installed (apt-get install xournalpp); it is the real reader this test needs")
            return nil
        }
        let dir = TempDir()
        let source = XoppZipTests.path(name), png = dir.file("theirs.png")
        let run = try await runXournalpp(xournalpp, ["--create-img=\(png)", "--export-png-width=800", source])
        try #require(run.status == 0, "xournalpp --create-img failed: \(run.stderr)")
        let theirs = try CairoImage(png: FileBytes.read(png))
        let ours = try SketchExport.image(of: SketchImport.read(source), width: 800)
        try #require(theirs.width == 800 && ours.width == 800 && theirs.height == ours.height)
        return (theirs, ours)
    }

    /// The pixel at page point (x, y) (4 px per point) nearly equal in both.
    static func expectSame(_ theirs: CairoImage, _ ours: CairoImage, _ x: Double, _ y: Double, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let a = theirs.pixel(x: Int(x * 4), y: Int(y * 4)), b = ours.pixel(x: Int(x * 4), y: Int(y * 4))
        let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        #expect(d <= 6, "\(what) at (\(x), \(y)): Xournal++ \(a), ours \(b)", sourceLocation: sourceLocation)
    }

    /// Everywhere: pixels may differ only along edges (anti-aliasing), under
    /// one in 200.
    static func expectEdgesOnly(_ theirs: CairoImage, _ ours: CairoImage,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        var differing = 0, compared = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = theirs.pixel(x: x, y: y), b = ours.pixel(x: x, y: y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                compared += 1
                if d > 40 { differing += 1 }
            }
        }
        #expect(differing * 200 < compared, "\(differing) of \(compared) pixels differ from Xournal++'s",
                sourceLocation: sourceLocation)
    }
}
