import Foundation
import LearnModel

/// The tasks of a class and the answers to one, as their teacher's
/// overview reads them from the log: each task as its newest change says
/// (by `at`, the later one on a tie, as the `assignment` table keeps it),
/// each answer as its pupil last sent it.
extension SyncStore {
    /// More tasks than a class is set in years; the rest are not listed.
    static let maxTasksRead = 5000

    /// The class's tasks, taken-back ones left out, the first set first.
    public func assignments(ofClass classID: UUID) async throws -> [(id: String, record: AssignmentRecord)] {
        let rows = try await db.query("""
            SELECT entityId, payload FROM change WHERE entity = 'assignment' AND classId = ? AND copyOf IS NULL
            ORDER BY seq LIMIT ?
            """, [.text(classID.key), .int(Int64(Self.maxTasksRead))])
        let decoder = JSONDecoder()
        var newest: [String: AssignmentRecord] = [:]
        var order: [String] = []
        for row in rows {
            let id = try row.text("entityId")
            guard let record = try? decoder.decode(AssignmentRecord.self, from: Data(try row.text("payload").utf8)) else {
                continue
            }
            if let kept = newest[id] {
                if record.at >= kept.at { newest[id] = record }
            } else {
                newest[id] = record
                order.append(id)
            }
        }
        return order.compactMap { id in newest[id].flatMap { $0.deleted ? nil : (id, $0) } }
    }

    /// The answers to `task` of these pupils, by pupil.
    public func answers(to task: UUID, of pupils: [UUID]) async throws -> [AccountID: AssignmentAnswer] {
        let decoder = JSONDecoder()
        var found: [AccountID: AssignmentAnswer] = [:]
        var start = 0
        while start < pupils.count {
            let batch = pupils[start..<min(start + 500, pupils.count)]
            start += batch.count
            let ids = batch.map { SQLValue.text(AssignmentAnswer.id(of: task, pupil: $0).key) }
            let rows = try await db.query("""
                SELECT payload FROM change WHERE entity = 'assignmentAnswer' AND copyOf IS NULL
                AND entityId IN (\(SQLStatement.placeholders(ids.count))) ORDER BY seq
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
