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

    public static let sketchFile = SketchCapacity(maxOps: SketchLimits.maxOps, maxSegments: SketchLimits.maxSegments,
                                                  maxOpenStrokesPerSender: 4)

    public init(maxOps: Int, maxSegments: Int, maxOpenStrokesPerSender: Int) {
        self.maxOps = maxOps
        self.maxSegments = maxSegments
        self.maxOpenStrokesPerSender = maxOpenStrokesPerSender
    }
}

extension SketchOp {
    /// Stroke pieces this op adds to a sketch.
    var segmentCount: Int {
        if case .addStroke(let s) = self { return s.segments.count }
        return 0
    }
}
