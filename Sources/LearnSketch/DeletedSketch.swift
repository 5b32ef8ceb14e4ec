import Foundation

/// A sketch deleted on this computer or elsewhere, as the teacher's
/// "Deleted" list shows it.
public struct DeletedSketch: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    /// When this computer learnt of the deletion.
    public var deletedAt: Date

    public init(id: UUID, name: String, deletedAt: Date) {
        self.id = id; self.name = name; self.deletedAt = deletedAt
    }
}
