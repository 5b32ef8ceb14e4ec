import Foundation
import LearnModel
import LearnRender
import NIOPosix

/// Sketches drawn on the server with the desktop's renderer, so a teacher's
/// browser and a gallery show what the pupils' screens showed.
enum SketchImages {
    /// Thumbnails fit a 256-pixel square.
    static let thumbnailWidth = 256
    /// A full-size image is the sheet at one pixel per canvas unit, made
    /// smaller where that would exceed 16 million pixels (a 64 MB bitmap).
    static let maxPixels = 16_000_000.0

    /// The pixel width to render at: within a square of `box` pixels, or
    /// full size when `box` is nil.
    static func pixelWidth(_ sketch: SyncStore.SketchRecord, box: Int?) -> Int {
        let w = sketch.width, h = sketch.height
        var scale = min(1, (maxPixels / (w * h)).squareRoot(), Double(SketchExport.maxPixelWidth) / w)
        if let box { scale = min(Double(box) / w, Double(box) / h) }
        return max(1, Int((w * scale).rounded(.down)))
    }

    static func document(_ sketch: SyncStore.SketchRecord, payloads: [String]) -> SketchDocument {
        var doc = SketchDocument(meta: SketchMeta(id: sketch.id, name: sketch.name, width: sketch.width,
                                                  height: sketch.height,
                                                  createdAt: UnixMilliseconds.date(sketch.createdAt)))
        for payload in payloads {
            if let op = SketchOpPayload.decode(Data(payload.utf8)) { doc.apply(op) }
        }
        return doc
    }

    /// Ops that do not decode are left out (the push checked them, so none
    /// should be), and the sketch is drawn from the rest.
    ///
    /// The pixels its ink paints at `scale` image pixels per canvas unit:
    /// each segment's swept area (its control polygon's length, which is at
    /// least the curve's, plus a width, times its width), a filled shape's
    /// box, a dot's square. What drawing costs grows with it; a few
    /// hundred strokes a thousand units wide are billions of pixels.
    static func inkPixels(_ doc: SketchDocument, scale: Double) -> Double {
        var units = 0.0
        for stroke in doc.strokes {
            if stroke.isDot { units += 4 * stroke.width * stroke.width; continue }
            if stroke.fill != nil { let b = stroke.bounds; units += b.width * b.height }
            var p = stroke.start
            for (i, s) in stroke.segments.enumerated() {
                let w = stroke.width(ofSegment: i)
                units += (distance(p, s.c1) + distance(s.c1, s.c2) + distance(s.c2, s.end) + w) * w
                p = s.end
            }
        }
        return units * scale * scale
    }

    private static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// `width`, or less so that the ink stays within `inkBudget` pixels
    /// (ink grows with the square of the width).
    static func width(_ width: Int, of doc: SketchDocument, inkBudget: Double) -> Int {
        let cost = inkPixels(doc, scale: Double(width) / doc.meta.width)
        guard cost > inkBudget else { return width }
        return max(1, Int((Double(width) * (inkBudget / cost).squareRoot()).rounded(.down)))
    }
}
