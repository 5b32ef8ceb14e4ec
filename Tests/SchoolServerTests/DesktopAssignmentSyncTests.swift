import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// A task from the teacher's laptop to the pupil's and her answer back,
/// each laptop with its own store and the app's own sync service, through
/// a real server.
@Suite struct DesktopAssignmentSyncTests {
    @Test(arguments: Backend.allCases)
    func aTaskReachesThePupilAndHerAnswerComesBack(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let two = try await MiaAndHerTeacher(api)
            defer { Task { await two.client.shutdown() } }
            let classID = try #require(try await api.call(.get, "/classes", token: two.berg).array.first?["id"] as? String)
            let mia = AccountID(two.mia.id.lowercased())

            // Frau Berg sets 2b a maths set made from a range.
            let set = try #require(ExerciseGenerator.make(ExerciseRecipe(range: .addition(within: 10), count: 3, seed: 5),
                                                          name: "Plus bis 10"))
            let task = UUID()
            try two.teachersLaptop.setAssignment(id: task, AssignmentRecord(classId: SchoolClassID(classID),
                                                                            task: .maths(set: set), due: "2026-12-24", at: 1))
            #expect(try await two.b.syncOnce().pushed == 1)

            // Mia's laptop has it on her board, new.
            _ = try await two.a.syncOnce()
            let tasks = try two.miasLaptop.assignments(classID: classID)
            #expect(tasks[task]?.task == .maths(set: set))
            let cards = AssignmentBoard.cards(for: mia, tasks: tasks, answered: [])
            #expect(cards.map(\.id) == [task] && cards.first?.title == "Plus bis 10")
            #expect(AssignmentBoard.news(cards, seen: []).count == 1)

            // She plays it, one key wrong on the way, and her answer goes back.
            var game = MathsGame(set: set, seed: 5, at: Date(timeIntervalSince1970: 0))
            var answers: [MathsAnswer] = []
            for (n, question) in set.questions.enumerated() {
                let at = Date(timeIntervalSince1970: Double(n + 1) * 5)
                if n == 1 { _ = game.press(question.answer + 1, at: at) }
                for effect in game.press(question.answer, at: at) { if case .finished(let all) = effect { answers = all } }
            }
            #expect(answers.map(\.right) == [true, false, true])
            try two.miasLaptop.setAnswer(AssignmentAnswer(assignmentId: task.lowercasedText, pupilId: mia,
                                                          work: .maths(answers: answers), at: 2))
            #expect(try await two.a.syncOnce().pushed == 1)
            let board = AssignmentBoard.cards(for: mia, tasks: tasks,
                                              answered: Set(try two.miasLaptop.answers(to: task).isEmpty ? [] : [task]))
            #expect(board.first?.done == true)

            // Frau Berg's laptop has Mia's answers, the wrong one marked.
            _ = try await two.b.syncOnce()
            let back = try two.teachersLaptop.answers(to: task)
            guard case .maths(let got)? = back[mia]?.work else {
                Issue.record("no maths answer from Mia: \(back)")
                return
            }
            #expect(got.map(\.right) == [true, false, true])
            #expect(got[1].wrongTries == [set.questions[1].answer + 1])

            // She takes it back: it leaves Mia's board.
            try two.teachersLaptop.setAssignment(id: task, AssignmentRecord(classId: SchoolClassID(classID),
                                                                            task: .maths(set: set), deleted: true, at: 3))
            _ = try await two.b.syncOnce()
            _ = try await two.a.syncOnce()
            #expect(try two.miasLaptop.assignments(classID: classID).isEmpty)
        }
    }

    /// A pupil's laptop that is online hears of a new task without waiting
    /// for its next pull on the clock: its sync service keeps a pull open
    /// that the server answers when the task is stored.
    @Test(arguments: Backend.allCases)
    func anOnlineLaptopHearsOfANewTaskAtOnce(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let two = try await MiaAndHerTeacher(api)
            defer { Task { await two.client.shutdown() } }
            let classID = try #require(try await api.call(.get, "/classes", token: two.berg).array.first?["id"] as? String)
            // A clock so slow that only the waiting pull can bring it.
            var tuning = SyncService.Tuning()
            (tuning.interval, tuning.pullInterval) = (600, 6000)
            // Short waits: the server's test ends sooner after the last one.
            tuning.waitSeconds = 3
            let miasService = SyncService(store: two.miasLaptop, connection: two.client.connection(token: two.mia.token),
                                          key: "mia", tuning: tuning)
            _ = try await miasService.syncOnce()
            await miasService.start()
            defer { Task { await miasService.stop() } }
            try await Task.sleep(for: .milliseconds(300))
            let task = UUID()
            try two.teachersLaptop.setAssignment(id: task, AssignmentRecord(
                classId: SchoolClassID(classID), task: .draw(prompt: "Ein Baum", groupSize: 1, guides: .none, timeLimitMinutes: 10),
                at: 1))
            _ = try await two.b.syncOnce()
            try await eventually(timeout: .seconds(120), "the task on Mia's laptop") {
                (try? two.miasLaptop.assignments(classID: classID)[task]) != nil
            }
        }
    }
}
