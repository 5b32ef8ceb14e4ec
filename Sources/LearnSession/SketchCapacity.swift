import LearnSketch
/// How much one shared sketch may hold. The host refuses an op past these
/// (`OpRefusalReason.sketchFull`, `.tooManyOpenStrokes`), so a sketch made
/// over the network is always one the app can save, export and open again
/// as a file: the defaults are the file limits (`SketchLimits`), counting the
/// strokes still in progress, which the end of a session commits.
public struct SketchCapacity: Hashable, Sendable {
    /// Ops in the sketch, strokes in progress included.
    public var maxOps: Int
    /// Stroke pieces in the sketch, strokes in progress included.
    public var maxSegments: Int
    /// Strokes one sender has begun and not ended. A pupil draws one line at
    /// a time; a few more cover a stroke cut by a dropped connection. Without
    /// a cap a hostile member could open strokes until the host's memory ran
    /// out, since each waits for its end.
    public var maxOpenStrokesPerSender: Int
    /// Bytes the sketch's ops may take in a `.teamsketch` file, estimated
    /// from above (`bytes(strokeBy:)` …): the op and piece counts alone
    /// allow files far over the size a file may have to be opened again.
    public var maxFileBytes: Int

    public static let sketchFile = SketchCapacity(maxOps: SketchLimits.maxOps, maxSegments: SketchLimits.maxSegments,
                                                  maxOpenStrokesPerSender: 4,
                                                  maxFileBytes: SketchLimits.maxFileBytes - metaBytes)

    public init(maxOps: Int, maxSegments: Int, maxOpenStrokesPerSender: Int,
                maxFileBytes: Int = SketchLimits.maxFileBytes - SketchCapacity.metaBytes) {
        self.maxOps = maxOps
        self.maxSegments = maxSegments
        self.maxOpenStrokesPerSender = maxOpenStrokesPerSender
        self.maxFileBytes = maxFileBytes
    }

    // What an op costs in a `.teamsketch` file at most, for values in wire
    // form (points and widths in 1/64 units, times in milliseconds). JSON
    // escapes a quote, a backslash or a slash in two bytes; names hold no
    // control characters (`DisplayName`). `SketchFileBytesTests` checks
    // these against the real encoder at the widest values.

    /// The file's own lines: format, version, the sketch's name and sizes.
    public static let metaBytes = 1_024
    /// One piece: six numbers like -999999.984375 and their commas.
    public static let bytesPerSegment = 90

    /// A stroke without its pieces: id, colour, pen, start, times, author.
    public static func bytes(strokeBy author: String) -> Int { 420 + 2 * author.utf8.count }

    /// An erase or a clear.
    public static func bytes(markBy author: String) -> Int { 160 + 2 * author.utf8.count }

    /// Any op, and a stroke still in progress.
    public static func bytes(of op: SketchOp) -> Int {
        switch op {
        case .addStroke(let s): bytes(strokeBy: s.author) + s.segments.count * bytesPerSegment
        case .eraseStroke(_, let by, _), .clear(let by, _): bytes(markBy: by)
        }
    }

    public static func bytes(of s: LiveStroke) -> Int { bytes(strokeBy: s.author) + s.segments.count * bytesPerSegment }
}

extension SketchOp {
    /// Stroke pieces this op adds to a sketch.
    var segmentCount: Int {
        if case .addStroke(let s) = self { return s.segments.count }
        return 0
    }
}
