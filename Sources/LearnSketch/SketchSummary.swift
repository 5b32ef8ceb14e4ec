import Foundation

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
    public var startedBy: StartedBy

    /// Who started the sketch, as far as this device knows.
    public enum StartedBy: Hashable, Sendable {
        /// Drawn alone: the school files it under whoever pushes it.
        case alone
        /// Drawn in a LAN session; `host` is the school account of the
        /// laptop that hosted it (nil when that laptop had none).
        case team(host: UUID?)
    }

    public init(id: UUID, name: String, guides: LineGuides, createdAt: Date, modifiedAt: Date,
                opCount: Int, thumbnail: Data?, startedBy: StartedBy = .alone) {
        self.id = id; self.name = name; self.guides = guides; self.createdAt = createdAt
        self.modifiedAt = modifiedAt; self.opCount = opCount; self.thumbnail = thumbnail; self.startedBy = startedBy
    }
}
