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
    /// page at 800 px; pixels may differ only along edges (anti-aliasing),
    /// and the pressure stroke, drawn here at its mean width, only where its
    /// widths are not the mean.
    @Test func whiteoutHighlighterAndPressureLookAsInXournalpp() throws {
        guard let xournalpp = Run.which("xournalpp") else {
            Issue.record("xournalpp is not installed (apt-get install xournalpp); it is the real reader this test needs")
            return
        }
        let dir = TempDir()
        let source = XoppZipTests.path("features.xopp"), png = dir.file("theirs.png")
        let run = try Self.runXournalpp(xournalpp, ["--create-img=\(png)", "--export-png-width=800", source])
        try #require(run.status == 0, "xournalpp --create-img failed: \(run.stderr)")
        let theirs = try CairoImage(png: FileBytes.read(png))
        let ours = try SketchExport.image(of: SketchImport.read(source), width: 800)
        try #require(theirs.width == 800 && ours.width == 800 && theirs.height == ours.height)

        // 4 px per point. Where each feature must match (page coordinates).
        func same(_ x: Double, _ y: Double, _ what: String) {
            let a = theirs.pixel(x: Int(x * 4), y: Int(y * 4)), b = ours.pixel(x: Int(x * 4), y: Int(y * 4))
            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            #expect(d <= 6, "\(what) at (\(x), \(y)): Xournal++ \(a), ours \(b)")
        }
        same(30, 50, "ink")
        same(50, 50, "whiteout over ink")
        same(50, 20, "whiteout on paper")
        same(150, 20, "highlighter on paper")
        same(85, 91.5, "pressure stroke, inside its mean width")
        same(85, 92.5, "pressure stroke, outside its mean width")
        same(100, 5, "paper")

        // Everywhere but the pressure stroke's band: edges only.
        var differing = 0, compared = 0
        for y in 0..<ours.height where !(80 * 4..<100 * 4).contains(y) {
            for x in 0..<ours.width {
                let a = theirs.pixel(x: x, y: y), b = ours.pixel(x: x, y: y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                compared += 1
                if d > 40 { differing += 1 }
            }
        }
        #expect(differing * 200 < compared, "\(differing) of \(compared) pixels differ from Xournal++'s")
    }
}
