import Foundation
import HTTPTypes
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import Testing
@testable import SchoolServer

/// One pupil's device that pushes without end reaches her quota: her
/// pushes are refused whole (her laptop keeps them), the teacher's list of
/// the class says so, and nobody else notices.
@Suite struct QuotaTests {
    /// Small limits, so a test reaches them in a few pushes.
    static func server(_ backend: Backend, _ edit: (inout AccountQuota) -> Void) -> TestServer {
        var server = TestServer(backend)
        edit(&server.configuration.quota)
        return server
    }

    static func strokes(_ sketch: UUID, _ count: Int) -> [[String: Any]] {
        (0..<count).map { Changes.stroke(sketch, x: Double(100 + $0)) }
    }

    @Test(arguments: Backend.allCases)
    func pastHerDailyQuotaMiasPushesWaitUntilTomorrowAndOleGoesOn(_ backend: Backend) async throws {
        try await Self.server(backend) { $0.bytesPerDay = 1_000 }.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let (mia, ole) = (klass.pupils["Mia"]!, klass.pupils["Ole"]!)
            let sketch = UUID()
            // Under the limit when it arrives, so the push is stored whole.
            let first = try await api.push([Changes.create(sketch)] + Self.strokes(sketch, 12), token: mia.token)
            #expect(first.accepted.count == 13)

            let late = Self.strokes(sketch, 2)
            let refused = try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": late])
            #expect(refused.status == .tooManyRequests && refused.problemCode == "overQuota")
            #expect(refused.object["limit"] as? String == "bytesToday")
            let wait = Int(refused.headers[.retryAfter] ?? "") ?? 0
            #expect(wait == AccountQuota.secondsToNextDay(from: api.clock.now) && wait <= 86_400, "\(wait)")
            let stored = try await api.call(.get, "/sketches", token: mia.token).array
            #expect(stored.first?["opCount"] as? Int == 12, "nothing of the refused push stored")

            // Ole's day is his own.
            let oles = UUID()
            #expect(try await api.push([Changes.create(oles)] + Self.strokes(oles, 3), token: ole.token).accepted.count == 4)

            // The teacher's list of the class says who reached what.
            let pupils = try await api.call(.get, "/classes/\(klass.id)/pupils", token: berg).array
            let byName = Dictionary(uniqueKeysWithValues: pupils.map { ($0["name"] as? String ?? "", $0) })
            #expect(byName["Mia"]?["quotaReached"] as? String == "bytesToday")
            #expect(byName["Ole"]?["quotaReached"] == nil)

            // The next day the same changes are taken.
            api.clock.advance(seconds: Int64(wait))
            #expect(try await api.push(late, token: mia.token).accepted.count == 2)
            let after = try await api.call(.get, "/classes/\(klass.id)/pupils", token: berg).array
            #expect(after.allSatisfy { $0["quotaReached"] == nil })
        }
    }

    @Test(arguments: Backend.allCases)
    func changesInAllAndSketchesHaveLimitsTooAndDrawingInOnesSketchesGoesOn(_ backend: Backend) async throws {
        try await Self.server(backend) { $0.sketches = 2; $0.changesInAll = 30 }.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let (mia, ole) = (klass.pupils["Mia"]!, klass.pupils["Ole"]!)
            // Team sketches Ole started naming Mia as their creator count
            // against Ole, who pushed them, not against Mia.
            let (t1, t2, t3) = (Changes.hosted(by: mia.id).create, Changes.hosted(by: mia.id).create, Changes.hosted(by: mia.id).create)
            #expect(try await api.push([t1, t2], token: ole.token).accepted.count == 2)
            let olesThird = try await api.call(.post, "/sync/push", token: ole.token, json: ["changes": [t3]])
            #expect(olesThird.object["limit"] as? String == "sketches")
            let (a, b, c) = (UUID(), UUID(), UUID())
            #expect(try await api.push([Changes.create(a), Changes.create(b)], token: mia.token).accepted.count == 2)
            let third = try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": [Changes.create(c)]])
            #expect(third.status == .tooManyRequests && third.object["limit"] as? String == "sketches")
            #expect(third.headers[.retryAfter] == "3600")
            // Strokes in the two she has are no new sketch.
            #expect(try await api.push(Self.strokes(a, 5), token: mia.token).accepted.count == 5)
            // Deleting one makes room.
            #expect(try await api.push([Changes.sketchChange(b, .delete(at: 1_790_000_000_000))], token: mia.token).accepted.count == 1)
            #expect(try await api.push([Changes.create(c)], token: mia.token).accepted.count == 1)

            #expect(try await api.push(Self.strokes(c, 25), token: mia.token).accepted.count == 25)
            let full = try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": Self.strokes(c, 1)])
            #expect(full.status == .tooManyRequests && full.object["limit"] as? String == "changesInAll")
            // A new day does not free a limit in all.
            api.clock.advance(seconds: Int64(AccountQuota.secondsToNextDay(from: api.clock.now)))
            let later = try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": Self.strokes(c, 1)])
            #expect(later.object["limit"] as? String == "changesInAll")
        }
    }

    /// Mia's laptop, with the app's own sync service: past her quota it
    /// keeps every stroke, says so, still receives her teacher's grade, and sends
    /// the rest the next day.
    @Test(arguments: Backend.allCases)
    func herLaptopKeepsEverythingPastTheQuotaAndSendsItTheNextDay(_ backend: Backend) async throws {
        try await Self.server(backend) { $0.bytesPerDay = 1_000 }.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let laptop = try LocalStore.inMemory()
            let statuses = Locked<[SyncStatus]>([])
            let sync = SyncService(store: laptop, connection: client.connection(token: klass.pupils["Mia"]!.token), key: "m",
                                   onStatus: { status in statuses.withLock { $0.append(status) } })
            let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try laptop.createSketch(meta)
            for x in stride(from: 100.0, to: 900, by: 100) { try laptop.append(.addStroke(DesktopSyncTests.stroke(x: x)), to: meta.id) }
            #expect(try await sync.syncOnce().pushed == 9)
            for x in stride(from: 1000.0, to: 1300, by: 100) { try laptop.append(.addStroke(DesktopSyncTests.stroke(x: x)), to: meta.id) }

            // What others do still reaches her meanwhile: the teacher grades her sketch.
            let target = GradedWorkID(meta.id)
            let grade = GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(klass.pupils["Mia"]!.id), grade: 1,
                                    comment: "Super!", at: 1_790_000_100_000)
            #expect(try await api.push([Changes.grade(grade)], token: berg).accepted.count == 1)

            let held = try await sync.syncOnce()
            #expect(held.pushed == 0 && held.refused == 0)
            #expect(try laptop.grades(forTarget: target).map(\.grade) == [1])
            #expect(try laptop.outboxCount() == 3, "nothing dropped")
            #expect(statuses.withLock { $0.last } == .held(.bytesToday, waiting: 3))

            api.clock.advance(seconds: Int64(AccountQuota.secondsToNextDay(from: api.clock.now)))
            #expect(try await sync.syncOnce().pushed == 3)
            #expect(try laptop.outboxCount() == 0)
            #expect(statuses.withLock { $0.last }.map { if case .synced = $0 { true } else { false } } == true)
            let listed = try await api.call(.get, "/sketches", token: klass.pupils["Mia"]!.token).array
            #expect(listed.first?["opCount"] as? Int == 11)
        }
    }

    /// Naming a member of a team sketch later copies its history for them;
    /// the copies count against whoever named them.
    @Test(arguments: Backend.allCases)
    func copiesMadeForAMemberCountAgainstWhoNamedThem(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let (mia, ole) = (klass.pupils["Mia"]!, klass.pupils["Ole"]!)
            let sketch = UUID()
            #expect(try await api.push([Changes.teamCreate(sketch, creator: mia.id)] + Self.strokes(sketch, 10), token: mia.token)
                .accepted.count == 11)
            #expect(try await api.push([Changes.member(ole.id, of: sketch)], token: mia.token).accepted.count == 1)
            let copies = try await api.database.query("SELECT COUNT(*) AS n FROM change WHERE copyFor = ?", [.text(ole.id)]).first?["n"].int
            #expect(copies == 11)
            let charged = try await api.database.query("SELECT CAST(SUM(changes) AS BIGINT) AS n FROM accountUsage WHERE accountId = ?",
                                                       [.text(mia.id)]).first?["n"].int
            #expect(charged == Int64(11 + 1 + 11), "her changes, the naming and the copies")
        }
    }

    /// Pushes sent side by side would all pass the quota on the same
    /// figures: an account's second push while one is stored waits its turn.
    @Test func oneAccountPushesOneBatchAtATime() async throws {
        try await Self.server(.sqlite) { $0.bytesPerDay = 1_000 }.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            #expect(try await api.push([Changes.create(sketch)], token: mia.token).accepted.count == 1)
            let answers = try await withThrowingTaskGroup(of: TestAPI.Answer.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        try await api.call(.post, "/sync/push", token: mia.token,
                                           json: ["changes": Self.strokes(sketch, 40).map { var c = $0; c["createdAt"] = 1_790_000_000_000 + n; return c }])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = answers.filter { $0.status == .ok }
            // Each push carries ~10 times the day's bytes: at most one is
            // stored; the others wait their turn or find the day full.
            #expect(stored.count <= 1, "\(answers.map(\.status))")
            #expect(answers.allSatisfy { $0.status == .ok || ($0.status == .tooManyRequests && $0.headers[.retryAfter] != nil) })
        }
    }

    /// A pupil whose pictures someone keeps guessing is one the teacher
    /// hears of; her own right pictures are no failure.
    @Test func wrongPictureTriesShowInTheTeachersListOfTheClass() async throws {
        try await TestServer(.sqlite).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!
            for _ in 0..<3 {
                let wrong = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [8, 8, 8]])
                #expect(wrong.status == .unauthorized)
            }
            let pupils = try await api.call(.get, "/classes/\(klass.id)/pupils", token: berg).array
            let byName = Dictionary(uniqueKeysWithValues: pupils.map { ($0["name"] as? String ?? "", $0) })
            #expect(byName["Mia"]?["failedSignInsToday"] as? Int == 3)
            #expect(byName["Ole"]?["failedSignInsToday"] == nil, "Ole signed in rightly, once")
            api.clock.advance(seconds: 86_400)
            let tomorrow = try await api.call(.get, "/classes/\(klass.id)/pupils", token: berg).array
            #expect(tomorrow.allSatisfy { $0["failedSignInsToday"] == nil })
        }
    }

    @Test func daysAreUTCAndLimitsAreCheckedInOrder() {
        #expect(AccountQuota.day(of: 0) == 0 && AccountQuota.day(of: 86_399_999) == 0 && AccountQuota.day(of: 86_400_000) == 1)
        #expect(AccountQuota.day(of: -1) == -1)
        #expect(AccountQuota.secondsToNextDay(from: 86_400_000 - 1) == 1)
        #expect(AccountQuota.secondsToNextDay(from: 86_400_000) == 86_400)
        let quota = AccountQuota()
        #expect(quota.reached(.init(), startsSketch: true) == nil)
        let full = AccountQuota.Usage(bytesToday: quota.bytesPerDay, bytesInAll: quota.bytesInAll, sketches: quota.sketches)
        #expect(quota.reached(full, startsSketch: true) == .bytesInAll)
        #expect(quota.reached(.init(sketches: quota.sketches), startsSketch: false) == nil)
        #expect(quota.reached(.init(sketches: quota.sketches), startsSketch: true) == .sketches)
        #expect(quota.reached(.init(changesToday: quota.changesPerDay), startsSketch: false) == .changesToday)
        #expect(AccountQuota.retryAfter(.sketches, now: 0) == 3600)
    }
}
