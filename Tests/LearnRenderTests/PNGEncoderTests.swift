import CCairo
import LearnModel
import Testing
@testable import LearnRender

@Suite struct PNGEncoderTests {
    /// Fills `image` with a pattern that changes per pixel, so any mix-up of
    /// rows, parts or channels shows.
    private func pattern(_ image: CairoImage) throws {
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        for i in 0..<40 {
            cairo_set_source_rgba(cr, Double(i % 7) / 6, Double(i % 5) / 4, Double(i % 3) / 2, 0.3 + Double(i % 4) / 6)
            cairo_rectangle(cr, Double(i * 37 % image.width), Double(i * 53 % image.height), 90, 70)
            cairo_fill(cr)
        }
    }

    @Test(arguments: [(CAIRO_FORMAT_RGB24, 700, 900), (CAIRO_FORMAT_RGB24, 31, 7), (CAIRO_FORMAT_ARGB32, 500, 400)])
    func decodesToTheSamePixels(format: cairo_format_t, width: Int, height: Int) throws {
        let image = try CairoImage(width: width, height: height, format: format)
        try pattern(image)
        let png = try PNGEncoder.encode(image)
        let back = try CairoImage(png: png)
        #expect((back.width, back.height) == (width, height))
        var worst = 0
        for y in stride(from: 0, to: height, by: 3) {
            for x in stride(from: 0, to: width, by: 3) {
                let p = image.pixel(x: x, y: y), q = back.pixel(x: x, y: y)
                // Un-premultiplying and premultiplying again may round faint pixels.
                let tolerance = p.a < 32 ? 16 : 2
                for (a, b) in [(p.r, q.r), (p.g, q.g), (p.b, q.b), (p.a, q.a)] {
                    let d = abs(Int(a) - Int(b))
                    worst = max(worst, d > tolerance ? d : 0)
                }
            }
        }
        #expect(worst == 0)
    }

    @Test func isSmallerThanCairosOwnPNGForADrawing() throws {
        let image = try SketchExport.image(of: SketchGenerator(seed: 2).document(strokes: 300, pointsPerStroke: 40))
        #expect(try PNGEncoder.encode(image).count < image.pngData().count)
    }
}
