import Foundation

/// A sketch could not be (fully) saved. The drawing goes on in memory; the
/// saver keeps what is unsaved and tries again with the next change.
public struct SketchSaveError: Error, CustomStringConvertible {
    public enum Step: Equatable, Sendable {
        /// Creating the sketch (or finding out what is stored of it).
        case create
        /// Appending a change after the stored ones.
        case append
        /// Storing an imported sketch in one go.
        case importDocument
    }

    public var step: Step
    public var sketchID: UUID
    public var underlying: any Error

    public init(step: Step, sketchID: UUID, underlying: any Error) {
        self.step = step
        self.sketchID = sketchID
        self.underlying = underlying
    }

    /// The store's own words: they name the file or the problem.
    public var description: String { String(describing: underlying) }
}
