import LearnBasics

/// Hard limits of the wire format (docs/PROTOCOL.md "Limits"). The decoder
/// rejects anything beyond them, and the session never produces it.
public enum SessionLimits {
    /// Largest value of a frame's length field (version + type + payload).
    public static let maxFrameLength = 1 << 20
    /// The highest op seq a frame may carry: a device making a million ops a
    /// second would need 146,000 years to get there, and every `seq + n` on it
    /// stays far from overflowing.
    public static let maxSeq: UInt64 = 1 << 62
    /// Names: member, sketch, author.
    public static let maxNameBytes = DisplayName.maxBytes
    public static let maxAvatarBytes = 64 << 10
    /// Segments in one stroke. At 80 segments a second that is over three
    /// minutes without lifting the pen; more is dropped, so the largest stroke
    /// (≤ 30 bytes a segment) always fits in one frame.
    public static let maxSegmentsPerStroke = 16_384
    /// Bytes of snapshot ops per `snapshotOps` frame (estimated generously).
    static let snapshotChunkBudget = 768 << 10

    /// `s` cut to at most `maxBytes` of UTF-8 at a character boundary.
    public static func truncated(_ s: String, maxBytes: Int = maxNameBytes) -> String {
        DisplayName.truncated(s, maxBytes: maxBytes)
    }
}
