import CCairo
import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// Strokes with Xournal++'s styles (fill, pressure widths, dashes, multiply)
/// look the same from every renderer: the fast ink path's image surfaces
/// (export, the canvas's tiles), Cairo's own path (PDF, SVG, zoomed
/// canvases), in their place among plain strokes.
@Suite struct StyledStrokeRenderTests {
    static let meta = SketchMeta(name: "Stile", width: 256, height: 256, createdAt: sketchDate(0))

    /// Plain and styled strokes in turn, overlapping, so the order shows.
    static func strokes() -> [Stroke] {
        var filled = polylineStroke([Point(20, 20), Point(120, 20), Point(70, 110), Point(20, 20)], width: 3,
                                    color: RGBA(r: 0, g: 0.6, b: 0))
        filled.fill = 0.5
        let black = polylineStroke([Point(10, 60), Point(240, 60)], width: 14, color: RGBA(r: 0, g: 0, b: 0))
        var highlighter = polylineStroke([Point(100, 10), Point(100, 140)], width: 16,
                                         color: RGBA(r: 1, g: 1, b: 0, a: XoppFormat.highlighterAlpha))
        highlighter.blend = .multiply
        let red = polylineStroke([Point(180, 10), Point(180, 140)], width: 10, color: RGBA(r: 1, g: 0, b: 0))
        var pressure = polylineStroke([Point(10, 170), Point(90, 170), Point(170, 170), Point(245, 170)], width: 4,
                                      color: RGBA(r: 0, g: 0, b: 1))
        pressure.widths = [2, 6, 10]
        var dashed = polylineStroke([Point(10, 210), Point(240, 210), Point(240, 240)], width: 4,
                                    color: RGBA(r: 0.5, g: 0, b: 0.5))
        dashed.dashes = [10, 5]
        let dot = Fixture.dot(at: Point(200, 100), color: RGBA(r: 0, g: 0, b: 1), width: 5)
        return [filled, black, highlighter, red, pressure, dashed, dot]
    }

    private func render(_ strokes: [Stroke], fastInk: Bool) throws -> CairoImage {
        let image = try CairoImage(width: 256, height: 256)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        SketchRenderer.draw(strokes, in: cr, clip: Rect(x: 0, y: 0, width: 256, height: 256), fastInk: fastInk)
        return image
    }

    private func worstDifference(_ a: CairoImage, _ b: CairoImage) -> (worst: Int, over32: Int) {
        var worst = 0, over = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                worst = max(worst, d)
                if d > 32 { over += 1 }
            }
        }
        return (worst, over)
    }

    @Test func fastPathDrawsStyledStrokesInTheirPlaceAsCairoDoes() throws {
        let fast = try render(Self.strokes(), fastInk: true), slow = try render(Self.strokes(), fastInk: false)
        let diff = worstDifference(fast, slow)
        // Anti-aliasing of the plain strokes' edges only.
        #expect(diff.over32 * 400 < 256 * 256, "\(diff.over32) pixels differ clearly")
        // The highlighter multiplies: black stays black, paper turns yellow.
        let onBlack = fast.pixel(x: 100, y: 60), onPaper = fast.pixel(x: 100, y: 130)
        #expect(onBlack.r < 5 && onBlack.g < 5 && onBlack.b < 5, "\(onBlack)")
        #expect(onPaper.r > 250 && onPaper.g > 250 && (125...145).contains(onPaper.b), "\(onPaper)")
        // The red stroke comes after the black one: it is on top.
        #expect(fast.pixel(x: 180, y: 60) == (255, 0, 0, 255))
        // The fill is half-transparent green inside the outline.
        let fill = fast.pixel(x: 70, y: 40)
        #expect(fill.r > 120 && fill.r < 135 && fill.g > 200 && fill.b > 120 && fill.b < 135, "\(fill)")
        // Pressure: 2 wide on the first piece, 10 wide on the last.
        #expect(fast.pixel(x: 50, y: 173).b == 255 && fast.pixel(x: 50, y: 173).r == 255)
        #expect(fast.pixel(x: 210, y: 173) == (0, 0, 255, 255))
        // Dashes of 10 on, 5 off from x = 10: a gap around 22.5, ink at 15.
        #expect(fast.pixel(x: 22, y: 210) == (255, 255, 255, 255))
        let dash = fast.pixel(x: 15, y: 210)
        #expect(dash.g == 0 && abs(Int(dash.r) - 128) <= 1 && abs(Int(dash.b) - 128) <= 1, "\(dash)")
    }

    /// The dash pattern runs on across a pressure stroke's pieces, which are
    /// drawn one by one: equal widths look like the plain dashed line
    /// (restarting the pattern at each piece would not). The joints lie
    /// inside a dash and inside a gap, not on a dash's end, where the
    /// round cap of a piece's end could show by a pixel.
    @Test func dashesContinueAcrossPressurePieces() throws {
        var plain = polylineStroke([Point(10, 50), Point(47, 50), Point(103, 50), Point(230, 50)], width: 4)
        plain.dashes = [7, 4, 1, 4]
        var pressure = plain
        pressure.widths = [4, 4, 4]
        let a = try render([plain], fastInk: true), b = try render([pressure], fastInk: true)
        let diff = worstDifference(a, b)
        #expect(diff.over32 == 0, "worst \(diff.worst)")
    }

    @Test func canvasTilesShowStyledStrokesAsTheExportDoes() throws {
        let doc = SketchDocument(meta: Self.meta, ops: Self.strokes().map(SketchOp.addStroke))
        let cache = InkTileCache()
        let key = TileKey(scale: 1, column: 0, row: 0)
        cache.render([key], meta: Self.meta, strokes: doc.strokes)
        let tile = try #require(cache.image(key))
        let export = try SketchExport.image(of: doc, width: 256)
        #expect(worstDifference(tile, export).over32 == 0)
        // And a damaged part redrawn (an erasure nearby) draws them again the same.
        cache.redraw(Rect(x: 60, y: 20, width: 80, height: 80), in: [key], meta: Self.meta, strokes: doc.strokes)
        #expect(worstDifference(tile, export).over32 == 0)
    }

    @Test func vectorExportsDrawStyledStrokes() throws {
        let doc = SketchDocument(meta: Self.meta, ops: Self.strokes().map(SketchOp.addStroke))
        let pdf = try SketchExport.pdfData(doc)
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        #expect(try !SketchExport.svgData(doc).isEmpty)
        // Without the highlighter (Cairo's SVG has no multiply and paints
        // such a page as an image), the dashes are SVG's own.
        let noHighlighter = SketchDocument(meta: Self.meta, ops: Self.strokes().filter { $0.blend == nil }
            .map(SketchOp.addStroke))
        let svg = String(decoding: try SketchExport.svgData(noHighlighter), as: UTF8.self)
        #expect(svg.contains("stroke-dasharray"))
    }
}

extension StyledStrokeRenderTests {
    /// A pattern that would repeat millions of times along a stroke (a
    /// hostile file: lines a million units long) is drawn solid at once
    /// instead of hanging the drawing in Cairo's dasher.
    @Test func aPatternFarTooFineForItsLineIsDrawnSolid() throws {
        var s = polylineStroke([Point(-900_000, 50), Point(900_000, 50), Point(-900_000, 60)], width: 4)
        s.dashes = [0.05, 0.05]
        try SketchValidation.check(s)
        let start = Date()
        let image = try CairoImage(width: 256, height: 100)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        SketchRenderer.draw([s], in: cr, clip: Rect(x: 0, y: 0, width: 256, height: 100))
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(image.pixel(x: 128, y: 50).a == 255, "drawn, solid")
    }
}
