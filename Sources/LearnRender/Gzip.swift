import CZlib
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

    /// Inflates gzip (or zlib) data; concatenated gzip members are joined, as
    /// gunzip does.
    public static func decompress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        if let whole = decompressSingleMember(input) { return whole }
        return try decompressInChunks(input)
    }

    /// The common case in one pass: one gzip member whose trailer gives the
    /// inflated size, inflated straight into the result. Nil for anything
    /// else (several members, a damaged file), which the chunked path handles
    /// and explains.
    private static func decompressSingleMember(_ input: [UInt8]) -> [UInt8]? {
        guard isGzip(input), input.count >= 18 else { return nil }
        let n = input.count
        // ISIZE: the length mod 2³², little-endian, in the last four bytes.
        let size = Int(input[n - 4]) | Int(input[n - 3]) << 8 | Int(input[n - 2]) << 16 | Int(input[n - 1]) << 24
        guard size > 0, size < 1 << 31 else { return nil }
        var complete = false
        let output = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            count = 0
            var stream = z_stream()
            guard ts_inflate_init_auto(&stream) == Z_OK else { return }
            defer { inflateEnd(&stream) }
            input.withUnsafeBufferPointer { inBuf in
                stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                // One spare byte of room: a file longer than its trailer says fails here.
                guard inflate(&stream, Z_FINISH) == Z_STREAM_END, Int(stream.total_out) == size,
                      stream.avail_in == 0 else { return }
                complete = true
                count = size
            }
        }
        return complete ? output : nil
    }

    private static func decompressInChunks(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 6)
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
                        output.append(contentsOf: UnsafeBufferPointer(start: outBuf.baseAddress, count: n))
                    } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
                    consumed = inBuf.count - offset - Int(stream.avail_in)
                }
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
