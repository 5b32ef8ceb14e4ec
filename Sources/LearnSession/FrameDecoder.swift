/// Turns a byte stream, fed in chunks of any size, into messages.
///
/// It never trusts a length before checking it: a frame's bytes are only
/// waited for once its length field has passed the cap, so a hostile peer can
/// make it hold at most one capped frame plus one read. After an error the
/// stream is out of step and every later call throws the same error.
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: FrameError?
    /// Frames of types this version does not know, skipped so far.
    public private(set) var skippedFrames = 0

    public init() {}

    /// Bytes received but not yet decoded.
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard failure == nil else { return }
        // Drop what was decoded once it is the larger part, so the buffer does
        // not creep and compaction stays amortised O(1) a byte.
        if start > 0 && start >= buffer.count - start {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, nil when more bytes are needed.
    public mutating func next() throws(FrameError) -> SessionMessage? {
        if let failure { throw failure }
        while true {
            guard let (rawType, frameEnd) = try completeFrameHeader() else { return nil }
            let payloadStart = start + 6
            start = frameEnd
            if ActivityMessage.types.contains(rawType) {
                // The activity reads its own payload; here it is only carried.
                return .activity(ActivityMessage(type: rawType, payload: Array(buffer[payloadStart..<frameEnd])))
            }
            guard let type = MessageType(rawValue: rawType) else {
                skippedFrames += 1
                continue
            }
            var reader = WireReader(buffer, from: payloadStart, to: frameEnd)
            do {
                return try SessionMessage.decode(type: type, &reader)
            } catch {
                return try fail(.malformedPayload(type: rawType, reason: error.reason))
            }
        }
    }

    /// The type byte of the next complete frame, without reading its payload
    /// (nil when more bytes are needed). A receiver that expects only certain
    /// frames looks first and never decodes the others.
    public mutating func nextFrameType() throws(FrameError) -> UInt8? {
        if let failure { throw failure }
        return try completeFrameHeader()?.type
    }

    /// The type and end of the frame at `start` once all of it has arrived;
    /// nil while bytes are missing. A length or version that can never be
    /// right fails the stream here, before anything of the frame is read.
    private mutating func completeFrameHeader() throws(FrameError) -> (type: UInt8, end: Int)? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        let length = UInt32(buffer[start]) << 24 | UInt32(buffer[start + 1]) << 16
            | UInt32(buffer[start + 2]) << 8 | UInt32(buffer[start + 3])
        guard length >= 2 else { return try fail(.lengthTooShort(length)) }
        guard length <= UInt32(SessionLimits.maxFrameLength) else { return try fail(.frameTooLarge(length)) }
        guard available >= 4 + Int(length) else { return nil }
        let version = buffer[start + 4]
        guard version == SessionMessage.frameVersion else { return try fail(.unsupportedVersion(version)) }
        return (buffer[start + 5], start + 4 + Int(length))
    }

    /// Every complete message in the buffer.
    public mutating func drain() throws(FrameError) -> [SessionMessage] {
        var out: [SessionMessage] = []
        while let m = try next() { out.append(m) }
        return out
    }

    /// The stream has ended: throws if it ended inside a frame.
    public mutating func finish() throws(FrameError) {
        if let failure { throw failure }
        let available = buffer.count - start
        guard available > 0 else { return }
        if available < 4 { return try fail(.truncated(missingBytes: 4 - available)) }
        let length = Int(UInt32(buffer[start]) << 24 | UInt32(buffer[start + 1]) << 16
            | UInt32(buffer[start + 2]) << 8 | UInt32(buffer[start + 3]))
        try fail(.truncated(missingBytes: 4 + length - available))
    }

    private mutating func fail<T>(_ error: FrameError) throws(FrameError) -> T {
        failure = error
        buffer = []
        start = 0
        throw error
    }

    private mutating func fail(_ error: FrameError) throws(FrameError) {
        failure = error
        buffer = []
        start = 0
        throw error
    }
}
