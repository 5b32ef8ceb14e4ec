import CCairo
import LearnModel

/// Turns a sketch into files: raster (PNG), vector (PDF, SVG — one page in
/// points, the size of the canvas) and sketch data (.xopp, .teamsketch).
public enum SketchExport {
    /// Larger than any screen or print needs, small enough for Cairo's limits.
    public static let maxPixelWidth = 16384

    /// PNG size for a requested width: the height keeps the canvas's aspect.
    /// Nil when that height is no number of pixels an image can have (a
    /// canvas of impossible proportions, stored before imports were checked).
    public static func pixelSize(of meta: SketchMeta, width: Int) -> (width: Int, height: Int)? {
        let height = (Double(width) * meta.height / meta.width).rounded()
        guard height.isFinite, height <= Double(maxPixelWidth * 16) else { return nil }
        return (width, max(1, Int(height)))
    }

    /// The sketch rendered at `width` pixels across.
    public static func image(of doc: SketchDocument, width: Int = Int(SketchMeta.defaultWidth))
        throws(SketchIOError) -> CairoImage {
        guard (1...maxPixelWidth).contains(width) else { throw .invalidWidth(width) }
        guard let size = pixelSize(of: doc.meta, width: width) else {
            throw .cairo("the canvas of \(doc.meta.width) × \(doc.meta.height) cannot be drawn")
        }
        let image = try CairoImage(width: size.width, height: size.height)
        guard let cr = cairo_create(image.surface) else { throw .cairo("no context") }
        defer { cairo_destroy(cr) }
        let scale = Double(size.width) / doc.meta.width
        cairo_scale(cr, scale, scale)
        SketchRenderer.draw(doc, in: cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(cairoStatusText(status)) }
        return image
    }

    /// PNG bytes, e.g. for thumbnails in the store and the gallery.
    public static func pngData(_ doc: SketchDocument, width: Int = Int(SketchMeta.defaultWidth))
        throws(SketchIOError) -> [UInt8] {
        try PNGEncoder.encode(image(of: doc, width: width))
    }

    public static func pdfData(_ doc: SketchDocument) throws(SketchIOError) -> [UInt8] {
        try StreamDrawing.pdf(width: doc.meta.width, height: doc.meta.height, title: doc.meta.name) { cr in
            drawWhole(doc, in: cr)
        }
    }

    public static func svgData(_ doc: SketchDocument) throws(SketchIOError) -> [UInt8] {
        try StreamDrawing.bytes(makeSurface: { sink in
            let surface = cairo_svg_surface_create_for_stream(
                CairoByteSink.write, sink.closure, doc.meta.width, doc.meta.height)
            if let surface { cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT) }
            return surface
        }, draw: { cr in drawWhole(doc, in: cr) })
    }

    /// The file's bytes for `kind`; `width` applies to PNG only.
    public static func data(_ doc: SketchDocument, as kind: SketchFileKind, width: Int? = nil)
        throws(SketchIOError) -> [UInt8] {
        switch kind {
        case .png:
            // The canvas's own width by default, converted with a check: the
            // value came from a file.
            guard let w = width ?? Int(exactly: doc.meta.width.rounded()) else {
                throw .invalidWidth(maxPixelWidth + 1)
            }
            return try pngData(doc, width: w)
        case .pdf: return try pdfData(doc)
        case .svg: return try svgData(doc)
        case .xopp: return try XoppFile.data(doc)
        case .teamsketch: return try TeamsketchFile.data(doc)
        }
    }

    /// Writes `doc` to `path`, the format taken from its extension.
    public static func write(_ doc: SketchDocument, to path: String, width: Int? = nil) throws(SketchIOError) {
        guard let kind = SketchFileKind(path: path) else {
            throw .unknownExtension(path: path, allowed: SketchFileKind.exportable)
        }
        let bytes: [UInt8]
        do {
            bytes = try data(doc, as: kind, width: width)
        } catch .unwritable(_, let reason) {
            // The encoders do not know the file's name; the message should.
            throw .unwritable(path: path, reason: reason)
        } catch {
            throw error
        }
        try FileBytes.write(bytes, to: path)
    }

    /// The whole canvas, background and ink (vector exports).
    static func drawWhole(_ doc: SketchDocument, in cr: OpaquePointer) {
        SketchRenderer.draw(doc, in: cr, clip: Rect(x: 0, y: 0, width: doc.meta.width, height: doc.meta.height))
    }
}
