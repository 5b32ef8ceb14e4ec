import Foundation
import LearnModel

/// What an outbox row changes on the server.
public enum OutboxEntity: String, Sendable, CaseIterable {
    /// Sketch parameters: creation, rename, thumbnail, deletion.
    case sketch
    /// One op appended to a sketch's log; `entityId` is the sketch id.
    case sketchOp
    /// A word pool saved (whole, items included) or deleted; `entityId` is the pool id.
    case pool
    /// One pupil's result of one Buchstaben Post round; `entityId` is the row id.
    case wordPostRoundStat
}

/// One pending change for the sync server, written in the same transaction
/// as the local change it describes. The server applies each `opId` at most
/// once, so pushing a row twice (after a lost response) is harmless.
public struct OutboxEntry: Hashable, Sendable {
    /// UUIDv7: ordering by id is ordering by time of the change.
    public var opId: UUID
    public var entity: OutboxEntity
    /// Lowercase UUID string of the sketch.
    public var entityId: String
    /// JSON; for `.sketchOp` the `SketchOpPayload` bytes, for `.sketch` a
    /// `SketchChange`.
    public var payload: Data
    public var createdAt: Date

    public init(opId: UUID, entity: OutboxEntity, entityId: String, payload: Data, createdAt: Date) {
        self.opId = opId; self.entity = entity; self.entityId = entityId
        self.payload = payload; self.createdAt = createdAt
    }
}

/// Payload of a `.sketch` outbox row. The thumbnail bytes are not copied:
/// a thumbnail is derived data, and pushing the latest one at sync time is
/// enough, which keeps the outbox small.
struct SketchChange: Codable {
    enum Change: String, Codable {
        case create, rename, thumbnail, delete
    }

    var change: Change
    var name: String?
    var guides: String?
    var timeLimitMinutes: Int?
    var width: Double?
    var height: Double?
    var createdAt: Int64?
    /// When the change happened (Unix ms).
    var at: Int64

    static func create(_ meta: SketchMeta, at: Int64) -> SketchChange {
        SketchChange(change: .create, name: meta.name, guides: meta.guides.rawValue,
                     timeLimitMinutes: meta.timeLimitMinutes, width: meta.width, height: meta.height,
                     createdAt: StoreTime.milliseconds(meta.createdAt), at: at)
    }

    static func rename(_ name: String, at: Int64) -> SketchChange {
        SketchChange(change: .rename, name: name, at: at)
    }

    static func thumbnail(at: Int64) -> SketchChange { SketchChange(change: .thumbnail, at: at) }
    static func delete(at: Int64) -> SketchChange { SketchChange(change: .delete, at: at) }

    func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }
}
