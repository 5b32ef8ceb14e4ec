import Foundation
import LearnModel

/// What the web gallery shows a teacher of the tasks she set a class.
extension SchoolAPI {
    /// The class's tasks, for its teacher: 404 when there is no such
    /// class, 403 when it is another teacher's.
    func classAssignments(classID: UUID) async throws -> [(id: String, record: AssignmentRecord)] {
        let teacher = try await signedInTeacher()
        _ = try await ownClass(classID, of: teacher)
        return try await database { try await sync.assignments(ofClass: classID) }
    }

    /// One task of the class and the answers of its pupils (`pupils`, the
    /// class's as its teacher lists them), for its teacher.
    func assignmentAnswers(classID: UUID, task: UUID, pupils: [UUID]) async throws
        -> (record: AssignmentRecord, answers: [AccountID: AssignmentAnswer]) {
        let tasks = try await classAssignments(classID: classID)
        guard let record = tasks.first(where: { $0.id == task.key })?.record else {
            throw Problem(.notFound, "no such task")
        }
        return (record, try await database { try await sync.answers(to: task, of: pupils) })
    }
}
