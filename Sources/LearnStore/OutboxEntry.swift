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
    /// A pool given to a class or taken back (`PoolAssignment`); `entityId` is the pool id.
    case poolAssignment
    /// A teacher's grade and comment (`GradeRecord`); `entityId` is the grade id.
    case grade
    /// A class's classroom settings (`ClassSettingsRecord`); `entityId` is the class id.
    case classSettings
    /// An account's name and avatar (`ProfileRecord`); `entityId` is the account id.
    case profile
    /// A task a teacher set (`AssignmentRecord`); `entityId` is its id.
    case assignment
    /// A pupil's answer to a task (`AssignmentAnswer`); `entityId` is
    /// `AssignmentAnswer.id(of:pupil:)`.
    case assignmentAnswer
    /// A pupil removed for good and what of theirs to forget
    /// (`AccountErasure`); `entityId` is the account id. Only pulled: the
    /// school server makes it, a device never pushes one.
    case erasure
}

/// One pending change for the sync server, written in the same transaction
/// as the local change it describes. The server applies each `opId` at most
/// once, so pushing a row twice (after a lost response) is harmless.
public struct OutboxEntry: Hashable, Sendable {
    /// The change's id: for a sketch's creation and its ops the one every
    /// device gives them (`SketchOpIdentity`), else a UUIDv7.
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
