import CCairo
import CZlibShim
import Foundation
import LearnModel

/// Writes Cairo image surfaces as PNG, several times faster than
/// `cairo_surface_write_to_png`: no per-row filter search, zlib's fastest
/// level (which still compresses drawings on white better than libpng's
/// adaptive filters at its default level), and the image deflated in parts
/// on all cores, joined into the single zlib stream PNG requires.
public enum PNGEncoder {
    /// RGB24 becomes an RGB PNG; ARGB32 an RGBA PNG (un-premultiplied).
    public static func encode(_ image: CairoImage, level: Int32 = 1) throws(SketchIOError) -> [UInt8] {
        let surface = image.surface
        cairo_surface_flush(surface)
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32,
              let data = cairo_image_surface_get_data(surface) else {
            return try image.pngData()
        }
        let hasAlpha = format == CAIRO_FORMAT_ARGB32
        let width = image.width, height = image.height
        let pixelBytes = hasAlpha ? 4 : 3
        let rowBytes = 1 + width * pixelBytes
        let source = Pixels(base: data, stride: Int(cairo_image_surface_get_stride(surface)))

        // Filter type 0 (none) rows, converted from Cairo's native-endian words.
        let parts = height >= 256 ? min(ProcessInfo.processInfo.activeProcessorCount, 8) : 1
        // Every byte is written below, so the buffer need not be zeroed first.
        let raw = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buf, count in
            let out = Pixels(base: buf.baseAddress!, stride: rowBytes)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for y in height * part / parts..<height * (part + 1) / parts {
                    convertRow(y, from: source, to: out, width: width, hasAlpha: hasAlpha)
                }
            }
            count = rowBytes * height
        }

        let stream = try zlibStream(raw, rowBytes: rowBytes, rows: height, parts: parts, level: level)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(stream.count + 64)
        var header: [UInt8] = []
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header += [8, hasAlpha ? 6 : 2, 0, 0, 0]  // 8 bits, RGB(A), deflate, no filter choice, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", stream, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// A pointer that may cross into `concurrentPerform`: each part touches
    /// its own rows only.
    private struct Pixels: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let stride: Int
    }

    private static func convertRow(_ y: Int, from src: Pixels, to dst: Pixels, width: Int, hasAlpha: Bool) {
        let words = UnsafeRawPointer(src.base + y * src.stride).assumingMemoryBound(to: UInt32.self)
        var o = dst.base + y * dst.stride
        o.pointee = 0  // filter: none
        o += 1
        if hasAlpha {
            for x in 0..<width {
                let w = words[x]
                let a = w >> 24
                @inline(__always) func channel(_ shift: UInt32) -> UInt8 {
                    let c = (w >> shift) & 0xFF
                    return a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
                }
                o[0] = channel(16); o[1] = channel(8); o[2] = channel(0); o[3] = UInt8(a)
                o += 4
            }
        } else {
            for x in 0..<width {
                let w = words[x]
                o[0] = UInt8(truncatingIfNeeded: w >> 16)
                o[1] = UInt8(truncatingIfNeeded: w >> 8)
                o[2] = UInt8(truncatingIfNeeded: w)
                o += 3
            }
        }
    }

    /// One zlib stream made of `parts` raw deflate pieces compressed in
    /// parallel: every piece but the last ends on a byte boundary with a
    /// sync flush, so they concatenate into one valid stream.
    private static func zlibStream(_ raw: [UInt8], rowBytes: Int, rows: Int, parts: Int,
                                   level: Int32) throws(SketchIOError) -> [UInt8] {
        let pieces = PieceBox(count: parts)
        raw.withUnsafeBufferPointer { buf in
            let input = Pixels(base: UnsafeMutablePointer(mutating: buf.baseAddress!), stride: rowBytes)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let start = rows * part / parts * rowBytes, end = rows * (part + 1) / parts * rowBytes
                pieces.set(part, deflatePiece(input.base + start, count: end - start, last: part == parts - 1,
                                              level: level))
            }
        }
        var out: [UInt8] = [0x78, 0x01]  // zlib header: deflate, 32 KiB window, fastest
        for part in 0..<parts {
            guard let piece = pieces.get(part) else { throw .cairo("zlib could not compress the image") }
            out += piece
        }
        let checksum = raw.withUnsafeBufferPointer { buf in
            UInt32(adler32(1, buf.baseAddress, uInt(buf.count)))
        }
        out.append(bigEndian: checksum)
        return out
    }

    private static func deflatePiece(_ input: UnsafeMutablePointer<UInt8>, count: Int, last: Bool,
                                     level: Int32) -> [UInt8]? {
        var stream = z_stream()
        // Raw deflate (negative window bits): the zlib header and checksum
        // are written once for the whole stream.
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(count))) + 16)
        let flush = last ? Z_FINISH : Z_SYNC_FLUSH
        let ok = out.withUnsafeMutableBufferPointer { o -> Bool in
            stream.next_in = input
            stream.avail_in = uInt(count)
            stream.next_out = o.baseAddress
            stream.avail_out = uInt(o.count)
            let status = deflate(&stream, flush)
            return last ? status == Z_STREAM_END : (status == Z_OK && stream.avail_in == 0)
        }
        guard ok else { return nil }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to png: inout [UInt8]) {
        png.append(bigEndian: UInt32(body.count))
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        png += typeBytes
        png += body
        png.append(bigEndian: UInt32(crc))
    }
}

/// Results of the parallel pieces, each slot written by one task.
private final class PieceBox: @unchecked Sendable {
    private var pieces: [[UInt8]?]
    private let lock = NSLock()

    public init(count: Int) { pieces = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ piece: [UInt8]?) {
        lock.lock()
        pieces[i] = piece
        lock.unlock()
    }

    public func get(_ i: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return pieces[i]
    }
}

private extension Array where Element == UInt8 {
    public mutating func append(bigEndian v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF)); append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}
