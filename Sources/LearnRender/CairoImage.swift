import CCairo
import LearnModel

/// An owned Cairo image surface (RGB24 or ARGB32), released on deinit.
public final class CairoImage {
    public let surface: OpaquePointer
    public let width: Int
    public let height: Int

    /// A blank surface; fails with Cairo's status when it cannot be made
    /// (too large, out of memory).
    public init(width: Int, height: Int, format: cairo_format_t = CAIRO_FORMAT_RGB24) throws(SketchIOError) {
        // Checked before converting: a size worked out from a stored sketch's
        // canvas may be anything, and Int32(_) traps where Cairo would only fail.
        guard let w = Int32(exactly: width), let h = Int32(exactly: height), w > 0, h > 0 else {
            throw .cairo("an image of \(width) × \(height) pixels cannot be made")
        }
        guard let s = cairo_image_surface_create(format, w, h) else {
            throw .cairo("no surface")
        }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw .cairo(cairoStatusText(status))
        }
        surface = s
        self.width = width
        self.height = height
    }

    /// Decodes PNG data (thumbnails, tests).
    public init(png: [UInt8]) throws(SketchIOError) {
        var reader = PNGReader(bytes: png)
        let s = withUnsafeMutablePointer(to: &reader) { ptr in
            cairo_image_surface_create_from_png_stream(PNGReader.read, ptr)
        }
        guard let s else { throw .cairo("no surface") }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw .cairo(cairoStatusText(status))
        }
        surface = s
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
    }

    deinit { cairo_surface_destroy(surface) }

    public var format: cairo_format_t { cairo_image_surface_get_format(surface) }

    /// The pixel at (x, y) as 8-bit (r, g, b, a), un-premultiplied.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let row = cairo_image_surface_get_data(surface)! + y * stride
        // Cairo stores native-endian 32-bit words: 0xAARRGGBB.
        let word = UnsafeRawPointer(row).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
        let hasAlpha = format == CAIRO_FORMAT_ARGB32
        let a = hasAlpha ? UInt8(word >> 24) : 255
        func channel(_ shift: UInt32) -> UInt8 {
            let v = UInt32((word >> shift) & 0xff)
            guard a != 0, a != 255 else { return a == 0 ? 0 : UInt8(v) }
            return UInt8(min(255, (v * 255 + UInt32(a) / 2) / UInt32(a)))
        }
        return (channel(16), channel(8), channel(0), a)
    }

    /// PNG bytes of the surface.
    public func pngData() throws(SketchIOError) -> [UInt8] {
        let sink = CairoByteSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, CairoByteSink.write, sink.closure)
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(cairoStatusText(status)) }
        return sink.bytes
    }
}

/// Feeds PNG bytes to `cairo_image_surface_create_from_png_stream`.
private struct PNGReader {
    public let bytes: [UInt8]
    public var offset = 0

    public static let read: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let reader = closure.assumingMemoryBound(to: PNGReader.self)
        let n = Int(length)
        guard reader.pointee.offset + n <= reader.pointee.bytes.count else { return CAIRO_STATUS_READ_ERROR }
        reader.pointee.bytes.withUnsafeBufferPointer { buf in
            data.update(from: buf.baseAddress! + reader.pointee.offset, count: n)
        }
        reader.pointee.offset += n
        return CAIRO_STATUS_SUCCESS
    }
}
