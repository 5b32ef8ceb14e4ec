import LearnModel

/// What reading a sketch file reports while it works, and how it is asked
/// to stop: big files take seconds, and the window showing them must stay
/// responsive and offer a way out.
public struct SketchReadProgress: Sendable {
    public enum Step: Equatable, Sendable {
        /// Bytes come from the disk; `fraction` of the file is in.
        case reading(fraction: Double)
        /// A `.xopp`'s gzip is being unpacked.
        case unpacking
        /// The strokes are being read and checked.
        case readingStrokes
    }

    public var report: @Sendable (Step) -> Void
    /// Asked between steps and between chunks of the file; true stops the
    /// read with `SketchIOError.cancelled`.
    public var isCancelled: @Sendable () -> Bool

    public init(report: @escaping @Sendable (Step) -> Void = { _ in },
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.report = report
        self.isCancelled = isCancelled
    }

    /// Reports nothing and never stops: for the command line and tests.
    public static let none = SketchReadProgress()

    func check(_ path: String) throws(SketchIOError) {
        if isCancelled() { throw .cancelled(path: path) }
    }
}
