import Foundation
import LearnModel

/// A sketch as the sketch list shows it, without its op log.
public struct SketchSummary: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var guides: LineGuides
    public var createdAt: Date
    /// Last op, rename or creation; the list is sorted by it, newest first.
    public var modifiedAt: Date
    /// Ops in the log (strokes, erasures, clears), not visible strokes:
    /// counting those would need a replay of every sketch.
    public var opCount: Int
    /// PNG, if one was stored with `setThumbnail`.
    public var thumbnail: Data?

    public init(id: UUID, name: String, guides: LineGuides, createdAt: Date, modifiedAt: Date,
                opCount: Int, thumbnail: Data?) {
        self.id = id; self.name = name; self.guides = guides; self.createdAt = createdAt
        self.modifiedAt = modifiedAt; self.opCount = opCount; self.thumbnail = thumbnail
    }
}
