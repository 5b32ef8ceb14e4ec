import CCairo
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// The fast ink path must look like Cairo's own stroker and only take over
/// where it is exact.
@Suite struct InkRasterizerTests {
    /// Draws with a fresh context on `image`; `setUp` may transform or clip.
    private func render(_ strokes: [Stroke], on image: CairoImage, fastInk: Bool,
                        setUp: (OpaquePointer) -> Void = { _ in }) throws {
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        setUp(cr)
        SketchRenderer.draw(strokes, in: cr, clip: Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6), fastInk: fastInk)
    }

    /// Per-channel differences between two same-sized images.
    private func difference(_ a: CairoImage, _ b: CairoImage) -> (mean: Double, worst: Int, over32: Double) {
        var total = 0, worst = 0, over = 0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for d in [abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))] {
                    total += d; worst = max(worst, d); if d > 32 { over += 1 }; count += 1
                }
            }
        }
        return (Double(total) / Double(count), worst, Double(over) / Double(count))
    }

    @Test func matchesCairosStrokerOnAGeneratedSketch() throws {
        // Smoothed (cubic) and straight strokes, both pen widths, overlapping.
        let strokes = SketchGenerator(seed: 11).strokes(count: 60, pointsPerStroke: 40)
            + SketchGenerator(seed: 12).strokes(count: 60, pointsPerStroke: 40, shape: .polyline)
        let fast = try CairoImage(width: 800, height: 500), slow = try CairoImage(width: 800, height: 500)
        try render(strokes, on: fast, fastInk: true) { cairo_scale($0, 0.5, 0.5) }
        try render(strokes, on: slow, fastInk: false) { cairo_scale($0, 0.5, 0.5) }
        let diff = difference(fast, slow)
        #expect(diff.mean < 0.5, "mean channel difference \(diff.mean)")
        #expect(diff.over32 < 0.001, "share of clearly different channels \(diff.over32)")
    }

    @Test func matchesCairoForTranslucentInkAndDotsAtZoom() throws {
        let ink = RGBA(r: 0.2, g: 0.4, b: 0.9, a: 0.5)
        let strokes = [
            Fixture.line(from: Point(10, 10), to: Point(150, 90), color: ink, width: 12),
            Fixture.line(from: Point(10, 90), to: Point(150, 10), color: ink, width: 12),
            Fixture.dot(at: Point(140, 50), color: PenColor.red.rgba, width: 6),
        ]
        let fast = try CairoImage(width: 480, height: 300), slow = try CairoImage(width: 480, height: 300)
        try render(strokes, on: fast, fastInk: true) { cairo_scale($0, 3, 3) }
        try render(strokes, on: slow, fastInk: false) { cairo_scale($0, 3, 3) }
        let diff = difference(fast, slow)
        #expect(diff.mean < 0.5, "mean channel difference \(diff.mean)")
        #expect(diff.worst < 40, "worst channel difference \(diff.worst)")
        // Where the two translucent lines cross, the colour is laid on twice.
        let crossing = fast.pixel(x: 240, y: 150), single = fast.pixel(x: 60, y: 44)
        #expect(crossing.r < single.r)
    }

    @Test func keepsInsideARectangularClip() throws {
        let image = try CairoImage(width: 200, height: 100)
        let line = Fixture.line(from: Point(0, 50), to: Point(200, 50), color: PenColor.black.rgba, width: 20)
        try render([line], on: image, fastInk: true) { cr in
            cairo_rectangle(cr, 50, 0, 100, 100)
            cairo_clip(cr)
            #expect(InkRasterizer.target(of: cr)?.clip == InkRasterizer.PixelRect(x0: 50, y0: 0, x1: 150, y1: 100))
        }
        #expect(image.pixel(x: 49, y: 50).r == 255)
        #expect(image.pixel(x: 50, y: 50).r == 0x11)
        #expect(image.pixel(x: 149, y: 50).r == 0x11)
        #expect(image.pixel(x: 150, y: 50).r == 255)
    }

    @Test func respectsTranslationAndScale() throws {
        let image = try CairoImage(width: 300, height: 300)
        let dot = Fixture.dot(at: Point(10, 10), color: PenColor.black.rgba, width: 5)
        try render([dot], on: image, fastInk: true) { cr in
            cairo_translate(cr, 100, 50)
            cairo_scale(cr, 4, 4)
        }
        // Canvas (10, 10) lands on device (140, 90); radius 5 × 4 = 20 px.
        #expect(image.pixel(x: 140, y: 90).r == 0x11)
        #expect(image.pixel(x: 158, y: 90).r == 0x11)
        #expect(image.pixel(x: 162, y: 90).r == 255)
        #expect(image.pixel(x: 140, y: 68).r == 255)
    }

    @Test func drawsOnTransparentSurfacesPremultiplied() throws {
        let fast = try CairoImage(width: 100, height: 60, format: CAIRO_FORMAT_ARGB32)
        let slow = try CairoImage(width: 100, height: 60, format: CAIRO_FORMAT_ARGB32)
        let line = Fixture.line(from: Point(10, 30), to: Point(90, 30), color: RGBA(r: 1, g: 0, b: 0, a: 0.5), width: 10)
        for (image, fast) in [(fast, true), (slow, false)] {
            let cr = try #require(cairo_create(image.surface))
            SketchRenderer.draw([line], in: cr, clip: Rect(x: 0, y: 0, width: 100, height: 60), fastInk: fast)
            cairo_destroy(cr)
        }
        let p = fast.pixel(x: 50, y: 30), q = slow.pixel(x: 50, y: 30)
        #expect(abs(Int(p.a) - Int(q.a)) <= 1 && abs(Int(p.r) - Int(q.r)) <= 2)
        #expect(fast.pixel(x: 50, y: 5).a == 0)
    }

    @Test func leavesToCairoWhatItCannotDrawExactly() throws {
        let image = try CairoImage(width: 100, height: 100)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        #expect(InkRasterizer.target(of: cr) != nil)

        cairo_save(cr)
        cairo_rotate(cr, 0.3)
        #expect(InkRasterizer.target(of: cr) == nil, "rotation")
        cairo_restore(cr)

        cairo_save(cr)
        cairo_scale(cr, 2, 1)
        #expect(InkRasterizer.target(of: cr) == nil, "unequal scales")
        cairo_restore(cr)

        cairo_save(cr)
        cairo_rectangle(cr, 0.5, 0, 10, 10)
        cairo_clip(cr)
        #expect(InkRasterizer.target(of: cr) == nil, "clip off the pixel grid")
        cairo_restore(cr)

        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, 10, 10)
        cairo_rectangle(cr, 50, 50, 10, 10)
        cairo_clip(cr)
        #expect(InkRasterizer.target(of: cr) == nil, "two clip rectangles")
        cairo_restore(cr)

        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        #expect(InkRasterizer.target(of: cr) == nil, "another operator")
        cairo_restore(cr)

        cairo_push_group(cr)
        #expect(InkRasterizer.target(of: cr) == nil, "a group")
        cairo_pattern_destroy(cairo_pop_group(cr))

        let recording = try #require(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil))
        defer { cairo_surface_destroy(recording) }
        let vector = try #require(cairo_create(recording))
        defer { cairo_destroy(vector) }
        #expect(InkRasterizer.target(of: vector) == nil, "not an image surface")
    }

    @Test func bigRedrawsSplitIntoBandsWithoutSeams() throws {
        // Enough work to use every core: bands must join invisibly.
        let strokes = SketchGenerator(seed: 5).strokes(count: 400, pointsPerStroke: 60, shape: .polyline)
        let fast = try CairoImage(width: 1600, height: 1000), slow = try CairoImage(width: 1600, height: 1000)
        try render(strokes, on: fast, fastInk: true)
        try render(strokes, on: slow, fastInk: false)
        let diff = difference(fast, slow)
        #expect(diff.mean < 0.5, "mean channel difference \(diff.mean)")
        #expect(diff.over32 < 0.001, "share of clearly different channels \(diff.over32)")
    }
}
