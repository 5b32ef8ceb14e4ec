import Foundation

/// One change a device pushes, checked for shape by the API before it gets
/// here. `entityId` is at most 100 characters of [A-Za-z0-9._-].
public struct SyncChange: Sendable, Hashable {
    public enum Entity: String, Sendable, CaseIterable {
        case sketch, sketchOp, pool, poolAssignment, wordPostRoundStat, grade, classSettings, profile
    }

    public var opId: UUID
    public var entity: Entity
    public var entityId: String
    /// JSON text; its form depends on `entity`.
    public var payload: String
    /// The device's time of the change (Unix ms).
    public var createdAt: Int64

    public init(opId: UUID, entity: Entity, entityId: String, payload: String, createdAt: Int64) {
        self.opId = opId; self.entity = entity; self.entityId = entityId
        self.payload = payload; self.createdAt = createdAt
    }

    /// The entity id as stored: ids that are UUIDs in lower case, so every
    /// device's spelling names the same record; others (pool ids) as sent.
    public var entityKey: String {
        UUID(uuidString: entityId).map { $0.uuidString.lowercased() } ?? entityId
    }
}

/// A stored change as a pull returns it.
public struct StoredChange: Sendable, Hashable {
    public var seq: Int64
    public var change: SyncChange
    public var authorID: UUID
}
