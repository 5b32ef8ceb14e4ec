import Foundation
import LearnModel
import LearnRender

/// Reading a sketch file for the window: away from the main actor, so a big
/// file never freezes the screen, with each step reported back to it, and a
/// way for the person to stop. Nothing is stored here; the caller hands the
/// document to a `SketchSaver` once it is read.
@MainActor
public final class SketchFileOpening {
    public enum Outcome: Sendable {
        /// The sketch, and what the file held that it could not.
        case opened(SketchDocument, leftOut: ImportLeftOut)
        case failed(SketchIOError)
        case cancelled
    }

    public typealias Reader = @Sendable (_ path: String, _ progress: SketchReadProgress) throws(SketchIOError)
        -> SketchImport.Result

    public static let liveReader: Reader = { path, progress throws(SketchIOError) in
        try SketchImport.readReporting(path, progress: progress)
    }

    /// How long a read may take before the window shows its progress: a
    /// small file opens without a flash of the progress page.
    public static let progressDelay: Duration = .milliseconds(250)

    public let path: String
    public private(set) var lastStep: SketchReadProgress.Step?
    private let read: Reader
    private let stopped = LockedValue(false)

    public init(path: String, read: @escaping Reader = liveReader) {
        self.path = path
        self.read = read
    }

    public var isCancelled: Bool { stopped.value }

    /// Asks the read to stop; `run` then ends with `.cancelled`, whatever
    /// the reader was in the middle of.
    public func cancel() { stopped.value = true }

    public func run(onStep: @escaping @MainActor (SketchReadProgress.Step) -> Void = { _ in }) async -> Outcome {
        let stopped = stopped
        // One stream keeps the steps in the order they happened on their way
        // to the main actor.
        let (steps, continuation) = AsyncStream<SketchReadProgress.Step>.makeStream()
        let delivery = Task { @MainActor [weak self] in
            for await step in steps {
                guard let self, !self.isCancelled else { continue }
                self.lastStep = step
                onStep(step)
            }
        }
        let progress = SketchReadProgress(report: { continuation.yield($0) }, isCancelled: { stopped.value })
        let read = read, path = path
        let result = await Task.detached(priority: .userInitiated) { () -> Result<SketchImport.Result, SketchIOError> in
            do throws(SketchIOError) {
                return .success(try read(path, progress))
            } catch {
                return .failure(error)
            }
        }.value
        continuation.finish()
        await delivery.value
        if isCancelled { return .cancelled }
        switch result {
        case .success(let read): return .opened(read.document, leftOut: read.leftOut)
        case .failure(.cancelled): return .cancelled
        case .failure(let error): return .failed(error)
        }
    }
}
