/// Why a byte stream is not a valid frame stream. Any of these closes the
/// connection it came from, and only that one.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The length field is below 2 (it must cover version and type).
    case lengthTooShort(UInt32)
    /// The length field is above `SessionLimits.maxFrameLength`; nothing of
    /// the frame is buffered.
    case frameTooLarge(UInt32)
    case unsupportedVersion(UInt8)
    /// A known type whose payload does not parse.
    case malformedPayload(type: UInt8, reason: String)
    /// The stream ended inside a frame.
    case truncated(missingBytes: Int)

    public var description: String {
        switch self {
        case .lengthTooShort(let n): "frame length \(n) is too short"
        case .frameTooLarge(let n): "frame length \(n) exceeds the \(SessionLimits.maxFrameLength)-byte cap"
        case .unsupportedVersion(let v): "frame version \(v) is not supported (this peer speaks \(SessionMessage.frameVersion))"
        case .malformedPayload(let t, let r): "malformed payload of type \(t): \(r)"
        case .truncated(let n): "stream ended inside a frame (\(n) bytes missing)"
        }
    }
}
