import Testing
@testable import LearnModel

@Suite struct ViewportTests {
    func fitted() -> Viewport { Viewport(canvasWidth: 1600, canvasHeight: 1000, widgetWidth: 800, widgetHeight: 600) }

    @Test func fitsWholeCanvasCentredAtZoomOne() {
        let v = fitted()
        #expect(v.fitScale == 0.5)
        #expect(v.toWidget(Point(0, 0)) == Point(0, 50))
        #expect(v.toWidget(Point(1600, 1000)) == Point(800, 550))
        #expect(v.visibleCanvasRect == Rect(x: 0, y: 0, width: 1600, height: 1000))
    }

    @Test func roundTripsPoints() {
        var v = fitted()
        v.setZoom(2.5, anchor: Point(123, 321))
        let p = Point(777, 333)
        let q = v.toCanvas(v.toWidget(p))
        #expect(abs(q.x - p.x) < 1e-9 && abs(q.y - p.y) < 1e-9)
    }

    @Test func zoomKeepsAnchorFixed() {
        var v = fitted()
        let anchor = Point(400, 300)
        let before = v.toCanvas(anchor)
        v.setZoom(2, anchor: anchor)
        let after = v.toCanvas(anchor)
        #expect(abs(before.x - after.x) < 1e-9 && abs(before.y - after.y) < 1e-9)
        #expect(v.isZoomed)
        #expect(v.visibleCanvasRect.width < 1600)
    }

    @Test func zoomIsClampedAndScrollStaysOnCanvas() {
        var v = fitted()
        v.setZoom(100, anchor: Point(0, 0))
        #expect(v.zoom == Viewport.zoomRange.upperBound)
        v.scroll(dx: -1_000_000, dy: -1_000_000)
        #expect(v.toCanvas(Point(0, 0)).x >= -1e-9)
        #expect(v.toCanvas(Point(0, 0)).y >= -1e-9)
        v.scroll(dx: 1_000_000, dy: 1_000_000)
        let br = v.toCanvas(Point(800, 600))
        #expect(br.x <= 1600 + 1e-9 && br.y <= 1000 + 1e-9)
        v.setZoom(0.1, anchor: Point(0, 0))
        #expect(v.zoom == 1)
        #expect(v.toWidget(Point(0, 0)) == Point(0, 50))
    }
}
