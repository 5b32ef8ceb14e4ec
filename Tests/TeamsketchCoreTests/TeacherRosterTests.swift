import Foundation
import TeamsketchCore
import Testing

/// The roster's questions to the server, with a server the test answers.
@MainActor
final class RosterServer {
    var signIn: SchoolToken? = "token-a"
    var asked = 0
    var answer: [GradedPupils.Pupil]? = [.init(id: UUID(), name: "Mia", classID: "c1", className: "2b")]
    /// While set, a question waits until the test lets it go. (The roster
    /// holds this server: a question may outlive the test.)
    var holding: [CheckedContinuation<Void, Never>]?
    var now = Date(timeIntervalSince1970: 1_790_000_000)

    lazy var roster = TeacherRoster(
        TeacherRoster.Source(teacherSignIn: { [self] in signIn },
                             ask: { [self] in
                                 asked += 1
                                 if holding != nil { await withCheckedContinuation { holding?.append($0) } }
                                 return answer
                             }),
        now: { [self] in MainActor.assumeIsolated { now } })

    func release() {
        let waiting = holding ?? []
        holding = nil
        waiting.forEach { $0.resume() }
    }
}

@MainActor
@Suite struct TeacherRosterTests {
    @Test func withoutATeacherSignedInNobodyIsAskedFor() async {
        let server = RosterServer()
        server.signIn = nil
        #expect(await server.roster.pupils().roster.isEmpty)
        #expect(server.asked == 0)
    }

    @Test func anAnswerIsKeptUntilTheTeacherChangesAClassOrSignsInAgain() async {
        let server = RosterServer()
        #expect(await server.roster.pupils().roster.map(\.name) == ["Mia"])
        #expect(await server.roster.pupils().roster.map(\.name) == ["Mia"])
        #expect(server.asked == 1, "a second screen uses the same answer")
        server.roster.forget()
        server.answer = [.init(id: UUID(), name: "Ben", classID: "c1", className: "2b")]
        #expect(await server.roster.pupils().roster.map(\.name) == ["Ben"])
        #expect(server.asked == 2)
        server.signIn = "token-b"
        server.answer = nil
        #expect(await server.roster.pupils().roster.isEmpty, "another teacher's sign-in does not see the first one's pupils")
        #expect(server.asked == 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func anAnswerAskedForBeforeAChangeIsNotKept() async throws {
        let server = RosterServer()
        server.holding = []
        let first = Task { await server.roster.pupils() }
        while server.holding?.isEmpty != false { try await Task.sleep(for: .milliseconds(1)) }
        server.roster.forget()
        server.release()
        #expect(await first.value.roster.map(\.name) == ["Mia"], "the one who asked gets the answer")
        server.answer = [.init(id: UUID(), name: "Ben", classID: "c1", className: "2b")]
        #expect(await server.roster.pupils().roster.map(\.name) == ["Ben"], "but the roster asks again")
        #expect(server.asked == 2)
    }

    /// The server never answers until the test lets it: without the limit
    /// this test would not end (the time limit then fails it).
    @Test(.timeLimit(.minutes(1)))
    func savingDoesNotWaitLongForAServerThatDoesNotAnswer() async {
        let server = RosterServer()
        #expect(await server.roster.pupils().roster.count == 1)
        server.now = server.now.addingTimeInterval(RosterFreshness.keptFor)
        server.holding = []
        let pupils = await server.roster.pupils(waitingAtMost: 0.05, grading: "Mia")
        #expect(server.asked == 2, "the old answer was due again: the server was asked")
        #expect(pupils.roster.map(\.name) == ["Mia"], "the roster at hand is used")
        server.release()
    }

    @Test func theClassMenuListsEachClassOnceByName() {
        let pupils = GradedPupils(roster: [.init(id: UUID(), name: "Mia", classID: "b", className: "3a"),
                                           .init(id: UUID(), name: "Ben", classID: "a", className: "2b"),
                                           .init(id: UUID(), name: "Ole", classID: "b", className: "3a")])
        #expect(TeacherRoster.classes(pupils).map(\.id) == ["a", "b"])
    }
}
