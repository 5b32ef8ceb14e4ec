import CZlibShim
import LearnModel

/// gzip compression through zlib's stream API (Xournal++ files are gzipped
/// XML). Errors carry zlib's own message.
public enum Gzip {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The two magic bytes every gzip member starts with.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    /// Level 6 is zlib's default trade-off; export speed matters more than the
    /// last few per cent of size, so callers may pass 1.
    public static func compress(_ input: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard ts_deflate_init_gzip(&stream, level) == Z_OK else {
            throw Failure(description: "zlib could not start compressing: \(message(stream))")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var status: Int32 = Z_OK
        var produced = 0
        input.withUnsafeBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                status = deflate(&stream, Z_FINISH)
                produced = outBuf.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: "zlib could not compress: \(message(stream, status))")
        }
        output.removeSubrange(produced...)
        return output
    }

    /// What `decompress` unpacks at most unless told otherwise.
    public static let defaultLimit = SketchLimits.maxInflatedBytes

    /// Inflates gzip (or zlib) data; concatenated gzip members are joined, as
    /// gunzip does. Stops with a failure once the output would pass `limit`
    /// bytes. The size the gzip trailer claims is never trusted for memory:
    /// the output grows with what really comes out.
    public static func decompress(_ input: [UInt8], limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        try decompressInChunks(input, limit: limit)
    }

    private static func decompressInChunks(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        // XML deflates about tenfold; a first guess from the input, never from the trailer.
        output.reserveCapacity(min(limit, input.count.multipliedReportingOverflow(by: 8).partialValue))
        var tooBig = false
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var offset = 0
        while offset < input.count {
            var stream = z_stream()
            guard ts_inflate_init_auto(&stream) == Z_OK else {
                throw Failure(description: "zlib could not start decompressing: \(message(stream))")
            }
            defer { inflateEnd(&stream) }
            var status: Int32 = Z_OK
            var consumed = 0
            input.withUnsafeBufferPointer { inBuf in
                chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress! + offset)
                    stream.avail_in = uInt(inBuf.count - offset)
                    repeat {
                        stream.next_out = outBuf.baseAddress
                        stream.avail_out = uInt(outBuf.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        let n = outBuf.count - Int(stream.avail_out)
                        guard n <= limit - output.count else { tooBig = true; return }
                        output.append(contentsOf: UnsafeBufferPointer(start: outBuf.baseAddress, count: n))
                    } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
                    consumed = inBuf.count - offset - Int(stream.avail_in)
                }
            }
            if tooBig {
                throw Failure(description: "it would unpack to more than \(limit >> 20) MB, "
                    + "more than any sketch holds")
            }
            switch status {
            case Z_STREAM_END:
                offset += consumed
            case Z_OK, Z_BUF_ERROR:
                throw Failure(description: "the compressed data ends too early (truncated file)")
            default:
                throw Failure(description: "the compressed data is damaged: \(message(stream, status))")
            }
            // Trailing zero padding after the last member is tolerated, as gunzip does.
            if input[offset...].allSatisfy({ $0 == 0 }) { break }
        }
        return output
    }

    private static func message(_ stream: z_stream, _ status: Int32 = Z_OK) -> String {
        if let msg = stream.msg { return String(cString: msg) }
        return "zlib status \(status)"
    }
}
