import Foundation

/// A sketch deleted elsewhere while this device had drawn in it, kept here
/// as a new sketch.
///
/// The outcome for the person in front of the screen: which sketch went
/// and what its copy is called; the ids let an editor still open on the
/// original go on in the copy.
public struct KeptCopy: Hashable, Sendable {
    public var originalID: UUID
    public var original: String
    public var copyID: UUID
    public var copy: String
    public init(originalID: UUID, original: String, copyID: UUID, copy: String) {
        self.originalID = originalID; self.original = original; self.copyID = copyID; self.copy = copy
    }
}
