import Foundation

/// What the server holds of one pupil, read for the archive their teacher
/// hands over when a family asks (`PupilArchive`). Only SQL lives here.
extension AccountStore {
    public struct PupilData: Sendable {
        public var pupil: PupilRecord
        public var className: String
        /// Every change the pupil pushed or that is about them (a grade, a
        /// round a classmate's laptop filed for them, the grade of a team
        /// sketch they drew in), in the log's order.
        /// Left out, as not theirs: a classmate's round their laptop filed
        /// for the classmate, and the copies of classmates' work the server
        /// made for them.
        public var changes: [Change]
        /// The sketches they drew in, deleted ones too, oldest first.
        public var sketches: [Sketch]

        public struct Change: Sendable {
            public var opId: String
            public var entity: String
            public var entityId: String
            public var payload: String
            public var createdAt: Int64
            public var receivedAt: Int64
            /// Who pushed it: the pupil, their teacher, or a classmate's laptop.
            public var authorId: String
        }

        public struct Sketch: Sendable {
            public var id: UUID
            public var name: String
            public var createdAt: Int64
            public var team: Bool
            public var deleted: Bool
        }
    }

    /// Nil when there is no such pupil. Read a page at a time: a pupil's
    /// year is bounded by their quota, not by one query's answer.
    public func pupilData(of id: UUID) async throws -> PupilData? {
        guard let pupil = try await pupilRecord(id) else { return nil }
        let p = SQLValue.text(id.key)
        let className = try await db.query("SELECT name FROM schoolClass WHERE id = ?", [.text(pupil.classID.key)])
            .first?["name"].text ?? ""
        var changes: [PupilData.Change] = []
        var after: Int64 = 0
        while true {
            let rows = try await db.query("""
                SELECT seq, opId, entity, entityId, payload, createdAt, receivedAt, authorId FROM change
                WHERE seq > ? AND copyFor IS NULL AND (subjectId = ? OR (authorId = ? AND subjectId IS NULL)
                    OR (entity = 'grade' AND sketchId IN (SELECT sketchId FROM sketchAuthor WHERE accountId = ?)))
                ORDER BY seq LIMIT ?
                """, [.int(after), p, p, p, .int(Int64(Self.exportPage))])
            for row in rows {
                changes.append(.init(opId: try row.text("opId"), entity: try row.text("entity"),
                                     entityId: try row.text("entityId"), payload: try row.text("payload"),
                                     createdAt: try row.int("createdAt"), receivedAt: try row.int("receivedAt"),
                                     authorId: try row.text("authorId")))
            }
            guard rows.count == Self.exportPage, let last = rows.last else { break }
            after = try last.int("seq")
        }
        let sketches = try await db.query("""
            SELECT sketch.id, sketch.name, sketch.createdAt, sketch.team, sketch.deletedAt FROM sketch
            JOIN sketchAuthor ON sketchAuthor.sketchId = sketch.id WHERE sketchAuthor.accountId = ?
            ORDER BY sketch.createdAt, sketch.id
            """, [p]).map {
                PupilData.Sketch(id: try $0.uuid("id"), name: try $0.text("name"), createdAt: try $0.int("createdAt"),
                                 team: $0["team"].int == 1, deleted: $0["deletedAt"] != .null)
            }
        return PupilData(pupil: pupil, className: className, changes: changes, sketches: sketches)
    }

    private static let exportPage = 2000
}
