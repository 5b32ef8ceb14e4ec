import Crypto
import Foundation
import LearnModel

/// One change a device pushes, checked for shape by the API before it gets
/// here. `entityId` is at most 100 characters of [A-Za-z0-9._-].
public struct SyncChange: Sendable, Hashable {
    public enum Entity: String, Sendable, CaseIterable {
        case sketch, sketchOp, pool, poolAssignment, wordPostRoundStat, grade, classSettings, profile
        case assignment, assignmentAnswer
        /// Made by the server only, when a teacher removes a pupil
        /// (`AccountErasure`); a device that pushes one is refused.
        case erasure
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
        UUID(text: entityId).map { $0.lowercasedText } ?? entityId
    }

    /// The SHA-256 of the payload in lowercase hex: kept with the change so
    /// a later push of the same op id can be told from another change
    /// under a stolen id.
    public var payloadHash: String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in Crypto.SHA256.hash(data: Data(payload.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

/// A stored change as a pull returns it.
public struct StoredChange: Sendable, Hashable {
    public var seq: Int64
    public var change: SyncChange
    public var authorID: UUID
    /// The account the change is about, when not only its author's (a
    /// game result is its player's, a profile its account's).
    public var subjectID: UUID?
}
