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

    /// The sketch as a vector PDF, for printing from the web gallery.
    static func renderPDF(_ sketch: SyncStore.SketchRecord, payloads: [String]) async throws -> [UInt8] {
        try await NIOThreadPool.singleton.runIfActive {
            try SketchExport.pdfData(document(sketch, payloads: payloads))
        }
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
    static func render(_ sketch: SyncStore.SketchRecord, payloads: [String], width box: Int?) async throws -> [UInt8] {
        let width = pixelWidth(sketch, box: box)
        return try await NIOThreadPool.singleton.runIfActive {
            try SketchExport.pngData(document(sketch, payloads: payloads), width: width)
        }
    }
}
