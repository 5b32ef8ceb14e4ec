import Foundation
import LearnModel

/// Taking a deletion back from the web gallery: the same rules and the same
/// log as a device's push of `SketchChange.restore`, so every laptop of the
/// sketch's members gets it back on its next pull.
extension SchoolAPI {
    /// The deleted sketches the signed-in teacher may bring back, a page
    /// at a time; a `before` that is not a cursor is 400.
    func deletedSketches(before: String?, limit: Int) async throws -> SyncStore.SketchPage<SyncStore.DeletedRecord> {
        let teacher = try await signedInTeacher()
        let cursor = try Self.cursor(before)
        let now = now
        return try await database {
            try await sync.deletedSketches(visibleTo: teacher, now: now, before: cursor, limit: limit)
        }
    }

    /// A deleted sketch's preview, for a teacher who may see it.
    func deletedThumbnail(of id: UUID) async throws -> [UInt8] {
        _ = try await signedInTeacher()
        return try await image(of: id, width: SketchImages.thumbnailWidth, deleted: true)
    }

    /// Restores a sketch as the signed-in teacher; the rules' refusal, if
    /// they refuse (not theirs, not deleted, deleted too long ago).
    func restoreSketch(_ id: UUID) async throws -> PushRejection? {
        let teacher = try await signedInTeacher()
        try requireRoom()
        let now = now
        let payload = String(decoding: try SketchChange.restore(at: now).encoded(), as: UTF8.self)
        let change = SyncChange(opId: UUID(), entity: .sketch, entityId: id.key, payload: payload, createdAt: now)
        return try await database {
            var facts = try await sync.facts(for: [change], pusher: teacher)
            facts.now = now
            let pusher = facts.people[teacher.id] ?? PushFacts.Person(id: teacher.id, isPupil: false, classID: nil)
            let decision = ChangeRules.decide(change, by: pusher, facts: &facts)
            if case .reject(let why) = decision { return why }
            try await sync.store([(change, decision)], pusher: teacher, now: now)
            return nil
        }
    }
}
