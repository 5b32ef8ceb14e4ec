import Foundation
import LearnModel
import Testing
@testable import SchoolServer

/// Who may set, change, answer and read a task (`AssignmentRecord`,
/// `AssignmentAnswer`): the class's teacher sets and changes it, her
/// class's pupils (or the ones she chose) see it, and each answer is its
/// pupil's own, seen by her and her teacher. Tried as the teacher, a
/// classmate, a pupil and a teacher of another class, and a stranger.
@Suite struct AssignmentRulesTests {
    static let plus = ExerciseSet(name: "Plus bis 10", questions: [MathsQuestion(7, .plus, 2), MathsQuestion(3, .plus, 4)])

    struct School {
        var berg: String, kurz: String
        var twoB: TestClass, threeA: TestClass
        var mia: (id: String, token: String) { twoB.pupils["Mia"]! }
        var ole: (id: String, token: String) { twoB.pupils["Ole"]! }
        var eve: (id: String, token: String) { threeA.pupils["Eve"]! }
    }

    func school(_ api: TestAPI) async throws -> School {
        let (_, berg) = try await api.teacher("Frau Berg")
        let (_, kurz) = try await api.teacher("Herr Kurz")
        return School(berg: berg, kurz: kurz,
                      twoB: try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"]),
                      threeA: try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"]))
    }

    static func assignment(_ id: UUID, of classID: String, pupils: [String]? = nil,
                           task: AssignmentRecord.Task = .maths(set: plus), deleted: Bool = false, at: Int64 = 1) -> [String: Any] {
        let record = AssignmentRecord(classId: SchoolClassID(classID), pupils: pupils.map { $0.map { AccountID($0) } },
                                      task: task, due: "2026-12-24", deleted: deleted, at: at)
        return Changes.record("assignment", id.lowercasedText, record)
    }

    static func answer(_ assignment: UUID, by pupil: String, as other: String? = nil,
                       work: AssignmentAnswer.Work? = nil) -> [String: Any] {
        let answers = plus.questions.map { MathsAnswer(question: $0, wrongTries: $0.answer == 9 ? [8] : [], milliseconds: 4000) }
        let record = AssignmentAnswer(assignmentId: assignment.lowercasedText, pupilId: AccountID(other ?? pupil),
                                      work: work ?? .maths(answers: answers), at: 2)
        let id = AssignmentAnswer.id(of: assignment, pupil: UUID(uuidString: pupil)!)
        return Changes.record("assignmentAnswer", id.lowercasedText, record)
    }

    func pulled(_ api: TestAPI, _ token: String, _ entity: String) async throws -> [String] {
        try await api.pullAll(token: token).filter { $0["entity"] as? String == entity }.compactMap { $0["entityId"] as? String }
    }

    @Test(arguments: Backend.allCases)
    func theClasssTeacherSetsATaskAndOnlyHerClassSeesIt(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let task = UUID()
            #expect(try await api.push([Self.assignment(task, of: s.twoB.id)], token: s.berg).rejected.isEmpty)
            for token in [s.berg, s.mia.token, s.ole.token] {
                #expect(try await pulled(api, token, "assignment") == [task.lowercasedText])
            }
            for token in [s.kurz, s.eve.token] {
                #expect(try await pulled(api, token, "assignment").isEmpty)
            }
            // Another teacher can neither set 2b a task nor change hers,
            // even knowing its id; a pupil sets none.
            let other = Self.assignment(UUID(), of: s.twoB.id)
            #expect(try await api.push([other], token: s.kurz).rejected.values.first == "forbidden")
            let taken = Self.assignment(task, of: s.twoB.id, deleted: true, at: 5)
            #expect(try await api.push([taken], token: s.kurz).rejected.values.first == "forbidden")
            let moved = Self.assignment(task, of: s.threeA.id, at: 5)
            #expect(try await api.push([moved], token: s.kurz).rejected.values.first == "conflict")
            let byPupil = Self.assignment(UUID(), of: s.twoB.id)
            #expect(try await api.push([byPupil], token: s.mia.token).rejected.values.first == "forbidden")
            // A stranger is not let in at all.
            #expect(try await api.call(.post, "/sync/push", json: ["changes": [other]]).status == .unauthorized)
            // She changes it herself: for Mia only now.
            let forMia = Self.assignment(task, of: s.twoB.id, pupils: [s.mia.id], at: 3)
            #expect(try await api.push([forMia], token: s.berg).rejected.isEmpty)
            #expect(try await api.database.query("SELECT pupils FROM assignment WHERE id = ?",
                                                 [.text(task.lowercasedText)]).first?["pupils"].text
                    == "[\"\(s.mia.id.lowercased())\"]")
        }
    }

    @Test(arguments: Backend.allCases)
    func whatCannotBeSetIsRefusedWithAReason(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            // For a pupil of another class; a crafted, huge or empty set; a bad day.
            let eveToo = Self.assignment(UUID(), of: s.twoB.id, pupils: [s.mia.id, s.eve.id])
            #expect(try await api.push([eveToo], token: s.berg).rejected.values.first == "forbidden")
            let negative = Self.assignment(UUID(), of: s.twoB.id,
                                           task: .maths(set: ExerciseSet(name: "x", questions: [MathsQuestion(2, .minus, 5)])))
            let huge = Self.assignment(UUID(), of: s.twoB.id,
                                       task: .maths(set: ExerciseSet(name: "x", questions: Array(repeating: MathsQuestion(1, .plus, 1),
                                                                                           count: 101))))
            let empty = Self.assignment(UUID(), of: s.twoB.id, task: .draw(prompt: " ", groupSize: 1, guides: .none,
                                                                           timeLimitMinutes: 0))
            for bad in [negative, huge, empty] {
                #expect(try await api.push([bad], token: s.berg).rejected.values.first == "badRequest")
            }
            var padded = Self.assignment(UUID(), of: s.twoB.id)
            padded["payload"] = String(repeating: " ", count: AssignmentRecord.maxPayloadBytes) + (padded["payload"] as! String)
            #expect(try await api.push([padded], token: s.berg).rejected.values.first == "badRequest")
            #expect(try await api.database.query("SELECT id FROM assignment").isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAnswerIsItsPupilsOwnAndHerTeachersToSee(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let task = UUID(), mine = UUID()
            #expect(try await api.push([Self.assignment(task, of: s.twoB.id),
                                        Self.assignment(mine, of: s.twoB.id, pupils: [s.ole.id])], token: s.berg)
                .rejected.isEmpty)
            let miasAnswer = Self.answer(task, by: s.mia.id)
            #expect(try await api.push([miasAnswer], token: s.mia.token).rejected.isEmpty)
            let answerID = miasAnswer["entityId"] as! String
            #expect(try await pulled(api, s.berg, "assignmentAnswer") == [answerID])
            #expect(try await pulled(api, s.mia.token, "assignmentAnswer") == [answerID])
            for token in [s.ole.token, s.eve.token, s.kurz] {
                #expect(try await pulled(api, token, "assignmentAnswer").isEmpty)
            }
            // A classmate cannot answer as Mia, under her answer's id or his own.
            #expect(try await api.push([Self.answer(task, by: s.mia.id)], token: s.ole.token).rejected.values.first
                    == "forbidden")
            #expect(try await api.push([Self.answer(task, by: s.ole.id, as: s.mia.id)], token: s.ole.token)
                .rejected.values.first == "forbidden")
            var misfiled = Self.answer(task, by: s.mia.id, as: s.ole.id)
            misfiled["opId"] = UUID().lowercasedText
            #expect(try await api.push([misfiled], token: s.ole.token).rejected.values.first == "badRequest")
            // Ole's task is not Mia's; 2b's is not Eve's; teachers do not answer.
            #expect(try await api.push([Self.answer(mine, by: s.mia.id)], token: s.mia.token).rejected.values.first
                    == "forbidden")
            #expect(try await api.push([Self.answer(task, by: s.eve.id)], token: s.eve.token).rejected.values.first
                    == "forbidden")
            #expect(try await api.push([Self.answer(UUID(), by: s.ole.id)], token: s.ole.token).rejected.values.first
                    == "conflict")
            // A drawing answer is a sketch she draws in, not a classmate's.
            let olesSketch = UUID()
            #expect(try await api.push([Changes.create(olesSketch, name: "Oles Haus"), Changes.stroke(olesSketch, author: "Ole")],
                                       token: s.ole.token).rejected.isEmpty)
            let borrowed = Self.answer(task, by: s.mia.id, work: .sketch(id: olesSketch))
            #expect(try await api.push([borrowed], token: s.mia.token).rejected.values.first == "forbidden")
            #expect(try await api.push([Self.answer(task, by: s.ole.id, work: .sketch(id: olesSketch))], token: s.ole.token)
                .rejected.isEmpty)
            // A task taken back takes no more answers.
            #expect(try await api.push([Self.assignment(mine, of: s.twoB.id, pupils: [s.ole.id], deleted: true, at: 9)],
                                       token: s.berg).rejected.isEmpty)
            #expect(try await api.push([Self.answer(mine, by: s.ole.id)], token: s.ole.token).rejected.values.first
                    == "conflict")
        }
    }
}
