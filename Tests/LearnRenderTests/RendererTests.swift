import CCairo
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// Draws onto a 1:1 image surface and looks at pixels.
@Suite struct RendererTests {
    private func canvas(_ width: Int = 400, _ height: Int = 300,
                        _ draw: (OpaquePointer) -> Void) throws -> CairoImage {
        let image = try CairoImage(width: width, height: height)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        draw(cr)
        return image
    }

    private func isWhite(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool {
        p.r == 255 && p.g == 255 && p.b == 255
    }

    @Test func strokeIsDrawnInItsColourWithRoundCaps() throws {
        let red = PenColor.red.rgba
        let image = try canvas { cr in
            SketchRenderer.draw(Fixture.line(from: Point(50, 100), to: Point(300, 100), color: red, width: 20), in: cr)
        }
        let mid = image.pixel(x: 175, y: 100)
        #expect((mid.r, mid.g, mid.b) == (0xE3, 0x20, 0x1B))
        // Round cap: ink reaches 10 units beyond the end point on the axis, not at the corner.
        #expect(!isWhite(image.pixel(x: 45, y: 100)))
        #expect(isWhite(image.pixel(x: 42, y: 91)))
        #expect(isWhite(image.pixel(x: 175, y: 120)))
    }

    @Test func dotIsAFilledCircleOfRadiusWidth() throws {
        let image = try canvas { cr in
            SketchRenderer.draw(Fixture.dot(at: Point(200, 150), color: PenColor.black.rgba, width: 10), in: cr)
        }
        #expect(image.pixel(x: 200, y: 150).r == 0x11)
        #expect(image.pixel(x: 207, y: 150).r == 0x11)
        #expect(isWhite(image.pixel(x: 212, y: 150)))
        #expect(isWhite(image.pixel(x: 208, y: 158)))
    }

    @Test func curvedSegmentFollowsTheBezier() throws {
        let start = Point(50, 250)
        let segment = CubicSegment(c1: Point(50, 50), c2: Point(350, 50), end: Point(350, 250))
        let image = try canvas { cr in
            SketchRenderer.drawSegment(segment, from: start, color: PenColor.darkBlue.rgba, width: 6, in: cr)
        }
        let top = segment.point(from: start, at: 0.5)  // (200, 100)
        #expect(image.pixel(x: Int(top.x), y: Int(top.y)).b == 0xA8)
        // The straight chord is far from a curve: nothing drawn there.
        #expect(isWhite(image.pixel(x: 200, y: 250)))
    }

    @Test func polylineDrawsThePendingTailAndASinglePoint() throws {
        let image = try canvas { cr in
            SketchRenderer.drawPolyline([Point(20, 20), Point(120, 20), Point(120, 120)],
                                        color: PenColor.orange.rgba, width: 8, in: cr)
            SketchRenderer.drawPolyline([Point(300, 200)], color: PenColor.orange.rgba, width: 8, in: cr)
            SketchRenderer.drawPolyline([], color: PenColor.orange.rgba, width: 8, in: cr)
        }
        #expect(!isWhite(image.pixel(x: 70, y: 20)))
        #expect(!isWhite(image.pixel(x: 120, y: 70)))
        #expect(!isWhite(image.pixel(x: 300, y: 200)))
        #expect(isWhite(image.pixel(x: 70, y: 70)))
    }

    @Test func translucentColourBlends() throws {
        let image = try canvas { cr in
            SketchRenderer.draw(Fixture.line(from: Point(0, 50), to: Point(400, 50),
                                             color: RGBA(r: 0, g: 0, b: 0, a: 0.5), width: 10), in: cr)
        }
        let p = image.pixel(x: 200, y: 50)
        #expect((120...135).contains(Int(p.r)))
    }

    @Test func backgroundIsWhiteWithLightGuides() throws {
        let meta = SketchMeta(name: "g", guides: .squared, width: 400, height: 300)
        let image = try canvas { cr in
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_paint(cr)
            SketchRenderer.drawBackground(meta: meta, in: cr)
        }
        #expect(isWhite(image.pixel(x: 20, y: 20)))
        // Guides are snapped to pixel centres: the line at x = 40 fills pixel 40 alone.
        let onLine = image.pixel(x: 40, y: 20)
        #expect(onLine.b > onLine.r, "guides are blue-grey")
        #expect((170...200).contains(Int(onLine.r)), "guides are light")
        #expect(isWhite(image.pixel(x: 38, y: 20)))
        #expect(isWhite(image.pixel(x: 42, y: 20)))
    }

    @Test func documentDrawSkipsStrokesOutsideTheClipButDrawsThoseInside() throws {
        let doc = Fixture.sketch()
        let visible = Rect(x: 0, y: 0, width: 600, height: 400)
        let image = try CairoImage(width: 1600, height: 1000)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        SketchRenderer.draw(doc, in: cr, clip: visible)
        #expect(image.pixel(x: 400, y: 300).r == 0xE3)       // red line crosses the clip
        #expect(isWhite(image.pixel(x: 1400, y: 800)))        // the dot lies outside: skipped
    }

    @Test func documentDrawUsesCairosClipWhenNoneIsGiven() throws {
        let doc = Fixture.sketch()
        let image = try CairoImage(width: 1600, height: 1000)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        cairo_rectangle(cr, 1300, 700, 200, 200)
        cairo_clip(cr)
        let extents = SketchRenderer.currentClip(cr)
        #expect(extents == Rect(x: 1300, y: 700, width: 200, height: 200))
        SketchRenderer.draw(doc, in: cr)
        #expect(image.pixel(x: 1400, y: 800).g == 0x7B)
    }

    @Test func inkBoundsMatchTheStrokesOwnBounds() {
        for stroke in Fixture.sketch().strokes {
            #expect(SketchRenderer.inkBounds(of: stroke) == stroke.bounds)
        }
    }
}
