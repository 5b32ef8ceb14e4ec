import Foundation
import GRDB
import LearnModel

/// A sketch deleted on another device (or by a teacher) while this device
/// held strokes the server never took: the deletion must not take them
/// along. The drawing as this device has it becomes a new sketch, named by
/// `copyName` ("Haus (copy)"), waiting for the server like anything drawn
/// here, and the original goes as it went everywhere else.
extension LocalStore {
    /// The name a copy gets where the app gives none (tests, the command
    /// line); the app passes its translated one.
    public static let defaultCopyName: @Sendable (String) -> String = { "\($0) (copy)" }

    public typealias KeptCopy = LearnModel.KeptCopy

    /// The server refused ops because their sketch was deleted there: keeps
    /// the sketch as a copy here and lets the original go. Nil when the
    /// sketch is gone here already (nothing left to keep).
    public func keepAsCopy(_ sketchID: UUID, copyName: (String) -> String) throws -> KeptCopy? {
        try writer.write { db in try keepAsCopy(sketchID, copyName: copyName, at: StoreTime.milliseconds(clock.now()), db) }
    }

    /// The sketch is deleted here already (a pull brought its deletion
    /// while it was open on the screen) and a stroke was drawn in it since:
    /// keeps it as a copy the same way, so the editor can go on in that.
    /// Nil when there is no such sketch at all.
    public func keepDeletedAsCopy(_ sketchID: UUID, copyName: (String) -> String) throws -> KeptCopy? {
        try writer.write { db in
            try keepAsCopy(sketchID, copyName: copyName, at: StoreTime.milliseconds(clock.now()),
                           includingDeleted: true, db)
        }
    }

    /// Whether the server has yet to hear of ops of this sketch drawn here.
    static func hasUnsentOps(_ sketchID: UUID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE entity = ? AND entityId = ? LIMIT 1",
                          arguments: [OutboxEntity.sketchOp.rawValue, sketchID.storeKey]) != nil
    }

    func keepAsCopy(_ sketchID: UUID, copyName: (String) -> String, at now: Int64,
                    includingDeleted: Bool = false, _ db: Database) throws -> KeptCopy? {
        guard let original = try? Self.loadSketch(sketchID, includingDeleted: includingDeleted, db) else { return nil }
        // Kept once already since it was deleted (a sync made the copy, and
        // a stroke drawn before the editor moved there still came to the
        // original): that copy.
        if let row = try Row.fetchOne(db, sql: """
            SELECT copy.id, copy.name FROM sketch AS original JOIN sketch AS copy ON copy.id = original.keptAs
            WHERE original.id = ? AND original.deletedAt IS NOT NULL AND copy.deletedAt IS NULL
            """, arguments: [sketchID.storeKey]), let copyID = UUID(text: row["id"]) {
            return KeptCopy(originalID: sketchID, original: original.meta.name, copyID: copyID, copy: row["name"])
        }
        var meta = original.meta
        meta.id = ids.next()
        meta.name = Self.fitted(original.meta.name, copyName)
        try insertWhole(meta, try Self.rows(original.ops, in: meta.id), at: now, db)
        try db.execute(sql: "UPDATE sketch SET deletedAt = COALESCE(deletedAt, ?), keptAs = ? WHERE id = ?",
                       arguments: [now, meta.id.storeKey, sketchID.storeKey])
        // What was still to go for the original would only be refused.
        try db.execute(sql: "DELETE FROM outbox WHERE entity IN (?, ?) AND entityId = ?",
                       arguments: [OutboxEntity.sketch.rawValue, OutboxEntity.sketchOp.rawValue, sketchID.storeKey])
        return KeptCopy(originalID: sketchID, original: original.meta.name, copyID: meta.id, copy: meta.name)
    }

    /// A copy's name within a sketch name's limit: the original's name is
    /// cut at its end, never what says it is a copy.
    private static func fitted(_ original: String, _ copyName: (String) -> String) -> String {
        var base = original
        while copyName(base).unicodeScalars.count > SketchLimits.maxNameLength, !base.isEmpty { base.removeLast() }
        let name = copyName(base)
        return name.unicodeScalars.count <= SketchLimits.maxNameLength ? name : original
    }
}
