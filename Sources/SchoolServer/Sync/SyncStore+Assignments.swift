import Foundation
import LearnModel

/// The tasks of a class and the answers to one, as their teacher's
/// overview reads them from the log: each as its last change in the
/// server's order says (as every device keeps them), only that change
/// read for each.
extension SyncStore {
    /// More tasks than a class is set in a school year; later ones are
    /// not listed. Each is at most `AssignmentRecord.maxPayloadBytes`.
    static let maxTasksListed = 400

    /// The class's tasks, taken-back ones left out, the first set first.
    public func assignments(ofClass classID: UUID) async throws -> [(id: String, record: AssignmentRecord)] {
        let rows = try await db.query("""
            SELECT last.entityId, change.payload FROM (
                SELECT entityId, MIN(seq) AS firstSeq, MAX(seq) AS lastSeq FROM change
                WHERE entity = 'assignment' AND classId = ? AND copyOf IS NULL GROUP BY entityId
            ) last JOIN change ON change.seq = last.lastSeq
            ORDER BY last.firstSeq LIMIT ?
            """, [.text(classID.key), .int(Int64(Self.maxTasksListed))])
        let decoder = JSONDecoder()
        return try rows.compactMap { row in
            guard let record = try? decoder.decode(AssignmentRecord.self, from: Data(try row.text("payload").utf8)),
                  !record.deleted else { return nil }
            return (try row.text("entityId"), record)
        }
    }

    /// The answers to `task` of these pupils, by pupil: each one's last.
    public func answers(to task: UUID, of pupils: [UUID]) async throws -> [AccountID: AssignmentAnswer] {
        let decoder = JSONDecoder()
        var found: [AccountID: AssignmentAnswer] = [:]
        var start = 0
        while start < pupils.count {
            let batch = pupils[start..<min(start + 500, pupils.count)]
            start += batch.count
            let ids = batch.map { SQLValue.text(AssignmentAnswer.id(of: task, pupil: $0).key) }
            let rows = try await db.query("""
                SELECT payload FROM change WHERE seq IN (
                    SELECT MAX(seq) FROM change WHERE entity = 'assignmentAnswer' AND copyOf IS NULL
                    AND entityId IN (\(SQLStatement.placeholders(ids.count))) GROUP BY entityId)
                """, ids)
            for row in rows {
                if let answer = try? decoder.decode(AssignmentAnswer.self, from: Data(try row.text("payload").utf8)) {
                    found[answer.pupilId] = answer
                }
            }
        }
        return found
    }
}
