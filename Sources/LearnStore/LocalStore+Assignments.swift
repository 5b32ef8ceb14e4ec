import Foundation
import GRDB
import LearnModel

/// Tasks a teacher sets and the pupils' answers. The teacher's laptop
/// writes a task, the pupil's laptop her answer; both go out through the
/// outbox and come back to every device that may see them. Like the other
/// records, the last change in the server's order wins.
extension LocalStore {
    public func setAssignment(id: UUID, _ record: AssignmentRecord) throws {
        if let problem = record.problem { throw StoreError.invalidRecord(problem) }
        try writeRecord(.assignment, id: id.storeKey, record) { db, data in
            try Self.keepAssignment(id: id.storeKey, classID: record.classId.text, data, db)
        }
    }

    /// The class's tasks, taken-back ones left out, by id.
    public func assignments(classID: String) throws -> [UUID: AssignmentRecord] {
        try writer.read { db in
            var found: [UUID: AssignmentRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, record FROM assignment WHERE classId = ?",
                                        arguments: [classID.lowercased()]) {
                guard let id = UUID(text: row["id"]),
                      let record = try? JSONDecoder().decode(AssignmentRecord.self, from: row["record"] as Data),
                      !record.deleted else { continue }
                found[id] = record
            }
            return found
        }
    }

    /// The pupil's answer, kept under the id of the task and her.
    public func setAnswer(_ answer: AssignmentAnswer) throws {
        if let problem = answer.problem { throw StoreError.invalidRecord(problem) }
        guard let task = UUID(text: answer.assignmentId), let pupil = answer.pupilId.uuid else {
            throw StoreError.invalidRecord("an answer names its assignment and pupil")
        }
        let id = AssignmentAnswer.id(of: task, pupil: pupil).storeKey
        try writeRecord(.assignmentAnswer, id: id, answer) { db, data in
            try Self.keepAnswer(id: id, answer, data, db)
        }
    }

    /// The answers to a task that this device has, by pupil.
    public func answers(to assignment: UUID) throws -> [AccountID: AssignmentAnswer] {
        try writer.read { db in
            var found: [AccountID: AssignmentAnswer] = [:]
            for data in try Data.fetchAll(db, sql: "SELECT record FROM assignmentAnswer WHERE assignmentId = ?",
                                          arguments: [assignment.storeKey]) {
                if let answer = try? JSONDecoder().decode(AssignmentAnswer.self, from: data) { found[answer.pupilId] = answer }
            }
            return found
        }
    }

    // MARK: shared with pulling

    static func keepAssignment(id: String, classID: String, _ data: Data, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO assignment (id, classId, record) VALUES (?, ?, ?)",
                       arguments: [id, classID.lowercased(), data])
    }

    static func keepAnswer(id: String, _ answer: AssignmentAnswer, _ data: Data, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO assignmentAnswer (id, assignmentId, pupilId, record) VALUES (?, ?, ?, ?)",
                       arguments: [id, answer.assignmentId.lowercased(), answer.pupilId.text.lowercased(), data])
    }
}
