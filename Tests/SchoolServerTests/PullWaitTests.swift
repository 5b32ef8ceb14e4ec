import Foundation
import LearnModel
import SchoolClient
import TeamsketchCore
import Testing
@testable import SchoolServer

/// A pull that waits (`wait=`), through the desktop's own client: the
/// server answers it as soon as a change the account may see is stored,
/// not for another class's changes, and at the end of the time with
/// nothing; an account cannot keep more than two waiting at once.
@Suite struct PullWaitTests {
    @Test(arguments: Backend.allCases)
    func aWaitingPullAnswersWhenItsClassGetsATask(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let mia = twoB.pupils["Mia"]!
            let app = try appClient(api)
            defer { Task { await app.shutdown() } }
            let waitForChanges = try #require(app.connection(token: mia.token).waitForChanges)
            let cursor = Int64(try #require(try await api.call(.get, "/sync/changes", token: mia.token).object["cursor"] as? Int))
            let started = ContinuousClock.now
            async let woke = waitForChanges(cursor, 25)
            // Another class's task wakes the wait, which finds nothing of
            // Mia's and waits on; her teacher's task ends it.
            try await Task.sleep(for: .milliseconds(300))
            let other = try await api.call(.post, "/classes", token: kurz, json: ["name": "4c"]).object["id"] as? String ?? ""
            #expect(try await api.push([AssignmentRulesTests.assignment(UUID(), of: other)], token: kurz).rejected.isEmpty)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.push([AssignmentRulesTests.assignment(UUID(), of: twoB.id)], token: berg).rejected.isEmpty)
            #expect(try await woke)
            #expect(ContinuousClock.now - started < .seconds(20), "answered when the task came, not at the end of the wait")
        }
    }

    @Test func nothingComingAnswersNoAtTheEndAndTheWaitIsBounded() async throws {
        try await TestServer(.sqlite).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let app = try appClient(api)
            defer { Task { await app.shutdown() } }
            let waitForChanges = try #require(app.connection(token: mia.token).waitForChanges)
            let cursor = Int64(try #require(try await api.call(.get, "/sync/changes", token: mia.token).object["cursor"] as? Int))
            let started = ContinuousClock.now
            #expect(try await waitForChanges(cursor, 1) == false)
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(try await api.call(.get, "/sync/changes?after=\(cursor)&wait=26", token: mia.token).status == .badRequest)
            #expect(try await api.call(.get, "/sync/changes?after=\(cursor)&wait=-1", token: mia.token).status == .badRequest)
            // Two pulls of hers wait; a third is answered at once.
            async let first = waitForChanges(cursor, 4)
            async let second = waitForChanges(cursor, 4)
            try await Task.sleep(for: .milliseconds(500))
            let third = ContinuousClock.now
            #expect(try await waitForChanges(cursor, 25) == false)
            #expect(ContinuousClock.now - third < .seconds(3), "over her two, not kept waiting")
            _ = try await (first, second)
            // Something there already: answered at once, however long it may wait.
            #expect(try await api.push([Changes.record("profile", mia.id, ProfileRecord(name: "Mia", at: 1))], token: mia.token)
                .rejected.isEmpty)
            let waitedFor = ContinuousClock.now
            #expect(try await waitForChanges(cursor, 25))
            #expect(ContinuousClock.now - waitedFor < .seconds(20))
        }
    }

    /// The bell wakes a waiter at once, also one that missed the ring while
    /// it asked the database, times out without a ring, and once closed
    /// (the server stopping) keeps no one waiting.
    @Test func theBellWakesTimesOutAndClosesForGood() async throws {
        let bell = ChangeBell()
        let started = ContinuousClock.now
        async let woken: Void = bell.wait(seconds: 60, after: bell.generation)
        try await Task.sleep(for: .milliseconds(200))
        bell.ring()
        await woken
        #expect(ContinuousClock.now - started < .seconds(30))
        let timing = ContinuousClock.now
        await bell.wait(seconds: 0.2, after: bell.generation)
        #expect(ContinuousClock.now - timing >= .milliseconds(200))
        // A ring between reading the count and waiting is not missed.
        let before = bell.generation
        bell.ring()
        let missed = ContinuousClock.now
        await bell.wait(seconds: 60, after: before)
        #expect(ContinuousClock.now - missed < .seconds(30))
        // A wait of no time at all still returns.
        await bell.wait(seconds: 0, after: bell.generation)
        let account = UUID()
        #expect(bell.enter(account) && bell.enter(account) && !bell.enter(account))
        bell.leave(account)
        #expect(bell.enter(account))
        bell.close()
        #expect(!bell.enter(UUID()))
        let closed = ContinuousClock.now
        await bell.wait(seconds: 60, after: bell.generation)
        #expect(ContinuousClock.now - closed < .seconds(30) && bell.isClosed)
    }
}
