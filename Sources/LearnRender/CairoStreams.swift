import CCairo
import LearnModel

/// Collects what Cairo writes through its stream callbacks (PNG, PDF, SVG),
/// so exports land in memory first and reach the disk in one atomic write.
public final class CairoByteSink {
    private(set) var bytes: [UInt8] = []

    /// Cairo's `cairo_write_func_t`; `closure` is an unretained sink that the
    /// caller keeps alive for the duration of the call.
    public static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<CairoByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    public var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// Cairo's text for a status code, e.g. "out of memory".
public func cairoStatusText(_ status: cairo_status_t) -> String {
    String(cString: cairo_status_to_string(status))
}
