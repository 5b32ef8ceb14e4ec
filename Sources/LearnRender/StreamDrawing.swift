import CCairo
import LearnModel

/// Drawing into a stream surface (PDF, SVG) that lands in memory: the
/// surface is made, drawn and finished here, and a Cairo error on the way
/// is thrown, so no caller writes half a document to disk.
enum StreamDrawing {
    static func bytes(makeSurface: (CairoByteSink) -> OpaquePointer?,
                      draw: (OpaquePointer) -> Void) throws(SketchIOError) -> [UInt8] {
        let sink = CairoByteSink()
        return try withExtendedLifetime(sink) { () throws(SketchIOError) -> [UInt8] in
            guard let surface = makeSurface(sink) else { throw .cairo("no surface") }
            defer { cairo_surface_destroy(surface) }
            guard let cr = cairo_create(surface) else { throw .cairo("no context") }
            draw(cr)
            let drawStatus = cairo_status(cr)
            cairo_destroy(cr)
            cairo_surface_finish(surface)
            let status = drawStatus != CAIRO_STATUS_SUCCESS ? drawStatus : cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(cairoStatusText(status)) }
            return sink.bytes
        }
    }

    /// A PDF of pages `width` × `height` points, titled, signed as ours.
    static func pdf(width: Double, height: Double, title: String,
                    draw: (OpaquePointer) -> Void) throws(SketchIOError) -> [UInt8] {
        try bytes(makeSurface: { sink in
            let surface = cairo_pdf_surface_create_for_stream(CairoByteSink.write, sink.closure, width, height)
            if let surface {
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Teamsketch Desktop")
            }
            return surface
        }, draw: draw)
    }
}
