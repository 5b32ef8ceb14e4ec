import Foundation
import LearnModel
import LearnStore
@testable import TeamsketchCore
import Testing

/// The sync service's decisions against a scripted server (the real one is
/// in SchoolServerTests/DesktopSyncTests): what goes out in which batches,
/// what leaves the outbox, how long it waits after a failure.
@Suite struct SyncServiceTests {
    /// A server that stores what it gets and answers as scripted.
    final class ScriptedServer: @unchecked Sendable {
        let lock = NSLock()
        var pushes: [[OutboxEntry]] = []
        var refuse: Set<UUID> = []
        var failNextPushes = 0
        /// Every push is refused whole with this quota.
        var overQuota: ServerQuota?
        /// Every push is refused whole: the server's disk is full.
        var full = false
        var pushAttempts = 0
        var pages: [PulledPage] = []
        var pulls: [Int64] = []
        /// The pushes each pull asked to leave out.
        var skipped: [[UUID]] = []
        /// The marks this server gave its pushes, in order.
        var pushIDs: [UUID] = []
        /// A pull from this cursor fails so.
        var pullFailure: (after: Int64, error: SchoolConnectionError)?

        var connection: SchoolConnection {
            SchoolConnection(
                push: { entries throws(SchoolConnectionError) in
                    let answer = self.lock.withLock { () -> Result<PushOutcome, SchoolConnectionError> in
                        self.pushAttempts += 1
                        if let quota = self.overQuota { return .failure(.overQuota(quota, retryAfter: 3600)) }
                        if self.full { return .failure(.serverFull(retryAfter: 600)) }
                        if self.failNextPushes > 0 {
                            self.failNextPushes -= 1
                            return .failure(.unreachable("connection refused"))
                        }
                        self.pushes.append(entries)
                        let refused = entries.filter { self.refuse.contains($0.opId) }
                        let id = UUID()
                        self.pushIDs.append(id)
                        return .success(PushOutcome(accepted: entries.map(\.opId).filter { !self.refuse.contains($0) },
                                                    refused: refused.map { .init(opId: $0.opId, reason: "no") }, pushId: id))
                    }
                    return try answer.get()
                },
                pull: { after, _, skipping throws(SchoolConnectionError) in
                    let answer = self.lock.withLock { () -> Result<PulledPage, SchoolConnectionError> in
                        self.pulls.append(after)
                        self.skipped.append(skipping)
                        if let failure = self.pullFailure, failure.after == after { return .failure(failure.error) }
                        return .success(self.pages.isEmpty ? PulledPage(changes: [], cursor: after, more: false)
                                                           : self.pages.removeFirst())
                    }
                    return try answer.get()
                })
        }
    }

    private func store(strokes: Int, segments: Int = 2) throws -> (LocalStore, SketchMeta) {
        let store = try LocalStore.inMemory()
        let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        try store.createSketch(meta)
        let strokes = SketchGenerator(seed: 4).strokes(count: strokes, pointsPerStroke: segments * 3)
        try store.append(contentsOf: strokes.map(SketchOp.addStroke), to: meta.id)
        return (store, meta)
    }

    @Test func theOutboxGoesOutOldestFirstInBoundedBatchesAndLeavesOnceAnswered() async throws {
        let (store, _) = try store(strokes: 1100)
        let server = ScriptedServer()
        let order = try store.pendingOutbox(limit: 5000).map(\.opId)
        server.refuse = [order[7]]
        let round = try await SyncService(store: store, connection: server.connection, key: "k").syncOnce()
        #expect(server.pushes.map(\.count) == [500, 500, 101])
        #expect(server.pushes.flatMap { $0 }.map(\.opId) == order)
        // The pull after them is not sent back what they stored.
        #expect(server.skipped == [server.pushIDs])
        #expect(round.pushed == 1100 && round.refused == 1)
        #expect(try store.outboxCount() == 0, "refused changes leave the outbox too")
        #expect(server.pulls == [0])
    }

    @Test func aPullNamesOnlyItsOwnRoundsPushesAndAtMostAsManyAsTheServerTakes() async throws {
        let (store, _) = try store(strokes: 69)
        let server = ScriptedServer()
        var tuning = SyncService.Tuning()
        tuning.pushBatch = 1
        let service = SyncService(store: store, connection: server.connection, key: "k", tuning: tuning)
        try await service.syncOnce()
        #expect(server.pushIDs.count == 70)
        #expect(server.skipped == [Array(server.pushIDs.prefix(64))])
        // The next round sent nothing, and names nothing.
        try await service.syncOnce()
        #expect(server.skipped.count == 2 && server.skipped[1].isEmpty)
    }

    @Test func aRoundThatPullsChangesSaysHowManyAndAQuietOneSaysNothing() async throws {
        // Another pupil's laptop made a sketch; the server hands it on.
        let (elsewhere, _) = try store(strokes: 2)
        let changes = try elsewhere.pendingOutbox(limit: 100).enumerated().map { index, entry in
            RemoteChange(seq: Int64(index + 1), opId: entry.opId, entity: entry.entity, entityId: entry.entityId,
                         payload: entry.payload, createdAt: entry.createdAt)
        }
        let server = ScriptedServer()
        server.pages = [PulledPage(changes: changes, cursor: Int64(changes.count), more: false)]
        let told = LockedCounts()
        let service = SyncService(store: try LocalStore.inMemory(), connection: server.connection, key: "k",
                                  onPulled: { told.append($0) })
        let first = try await service.syncOnce()
        let second = try await service.syncOnce()
        #expect(first.pulled == changes.count && second.pulled == 0)
        #expect(told.all == [changes.count], "what lists the store looks again once, not after every quiet round")
    }

    @Test func aRoundAskedForDuringAnotherSendsNothingTwice() async throws {
        let (store, _) = try store(strokes: 3)
        let server = ScriptedServer()
        let service = SyncService(store: store, connection: server.connection, key: "k")
        async let first = service.syncOnce()
        async let second = service.syncOnce()
        let rounds = try await [first, second]
        #expect(rounds.map(\.pushed).sorted() == [0, 4])
        #expect(server.pushes.count == 1)
    }

    @Test func aBatchStopsAtItsByteBudgetButNeverEmpty() async throws {
        let (store, _) = try store(strokes: 10, segments: 40)
        let server = ScriptedServer()
        var tuning = SyncService.Tuning()
        tuning.pushBytes = 1  // smaller than any op: one op per push
        _ = try await SyncService(store: store, connection: server.connection, key: "k", tuning: tuning).syncOnce()
        #expect(server.pushes.map(\.count) == Array(repeating: 1, count: 11))
    }

    @Test func aFailedPushKeepsEverythingAndSaysSinceWhen() async throws {
        let (store, _) = try store(strokes: 3)
        let server = ScriptedServer()
        server.failNextPushes = 2
        let statuses = LockedStatuses()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let now = LockedDate(start)
        let service = SyncService(store: store, connection: server.connection, key: "k", now: { now.value },
                                  onStatus: { statuses.append($0) })
        await #expect(throws: SchoolConnectionError.unreachable("connection refused")) { try await service.syncOnce() }
        now.value = start.addingTimeInterval(30)
        await #expect(throws: SchoolConnectionError.self) { try await service.syncOnce() }
        #expect(statuses.all.last == .unreachable(since: start, waiting: 4))
        #expect(try store.outboxCount() == 4)
        _ = try await service.syncOnce()
        #expect(statuses.all.last == .synced(at: start.addingTimeInterval(30)))
        #expect(try store.outboxCount() == 0)
    }

    /// Past a quota the outbox stays whole and the loop stops pushing until
    /// the server's Retry-After, but goes on pulling; "Sync now" tries again.
    /// The loop is walked step by step on a clock of the test's own (an
    /// earlier version ran it on the wall clock and counted its pulls in
    /// 20 s, which a busy machine could fail).
    @Test func pastAQuotaTheLoopKeepsEverythingPullsAndWaitsToPush() async throws {
        let (store, _) = try store(strokes: 3)
        let server = ScriptedServer()
        server.overQuota = .sketches
        let statuses = LockedStatuses()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let now = LockedDate(start)
        let service = SyncService(store: store, connection: server.connection, key: "k", now: { now.value },
                                  onStatus: { statuses.append($0) })
        for minute in 0..<5 {
            now.value = start.addingTimeInterval(Double(minute) * 31)  // a pull is due every 30 s
            #expect(await service.step() == SyncService.Tuning().interval)
        }
        #expect(server.lock.withLock { server.pulls.count } == 5, "the loop went on pulling")
        #expect(server.lock.withLock { server.pushAttempts } == 1, "and did not push again before Retry-After")
        // Once the server's Retry-After (an hour) has passed, it pushes again.
        now.value = start.addingTimeInterval(3601)
        _ = await service.step()
        #expect(server.lock.withLock { server.pushAttempts } == 2)
        #expect(try store.outboxCount() == 4)
        #expect(statuses.all.last == .held(.sketches, waiting: 4))
        server.lock.withLock { server.overQuota = nil }
        #expect(try await service.syncOnce().pushed == 4)
    }

    /// A deletion the server refuses (a classmate's team sketch) is undone
    /// here: the sketch is back in the list with its lines, and whatever
    /// lists sketches is told to look again.
    @Test func aDeletionTheServerRefusesIsUndoneHere() async throws {
        let (store, meta) = try store(strokes: 2)
        let server = ScriptedServer()
        _ = try await SyncService(store: store, connection: server.connection, key: "k").syncOnce()
        try store.deleteSketch(meta.id)
        let deletion = try #require(try store.pendingOutbox(limit: 10).first)
        server.lock.withLock { server.refuse = [deletion.opId] }
        let told = LockedCounts()
        let round = try await SyncService(store: store, connection: server.connection, key: "k",
                                          onPulled: { told.append($0) }).syncOnce()
        #expect(round.undone == 1 && round.refused == 1)
        #expect(try store.sketches().map(\.id) == [meta.id])
        #expect(try store.loadSketch(meta.id).strokes.count == 2)
        #expect(try store.outboxCount() == 0)
        #expect(told.all == [0], "told to look again")
    }

    /// A full disk on the server holds the outbox the same way, and says so.
    @Test func aFullServerKeepsEverythingAndPullsOn() async throws {
        let (store, _) = try store(strokes: 2)
        let server = ScriptedServer()
        server.full = true
        let statuses = LockedStatuses()
        let service = SyncService(store: store, connection: server.connection, key: "k", onStatus: { statuses.append($0) })
        let round = try await service.syncOnce()
        #expect(round.pushed == 0 && server.pulls == [0])
        #expect(try store.outboxCount() == 3)
        #expect(statuses.all.last == .serverFull(waiting: 3))
    }

    @Test func pagesArePulledToTheEndAndACursorGoingBackStopsTheRound() async throws {
        let (store, _) = try store(strokes: 1)
        let server = ScriptedServer()
        server.pages = [PulledPage(changes: [], cursor: 10, more: true), PulledPage(changes: [], cursor: 20, more: false)]
        _ = try await SyncService(store: store, connection: server.connection, key: "k").syncOnce()
        #expect(server.pulls == [0, 10])
        #expect(try store.syncCursor(for: "k") == 20)
        server.pages = [PulledPage(changes: [], cursor: 5, more: true)]
        await #expect(throws: SchoolConnectionError.self) {
            try await SyncService(store: store, connection: server.connection, key: "k").syncOnce()
        }
        #expect(try store.syncCursor(for: "k") == 20)
    }

    /// The next page is asked for while this one is written: what it
    /// brings is applied only after this one, and its failure is the
    /// round's, as it came.
    @Test func aPageAskedForAheadIsAppliedInTurnAndItsFailureEndsTheRound() async throws {
        let other = try store(strokes: 3).0
        let (store, _) = try store(strokes: 1)
        let remote = try other.pendingOutbox(limit: 10).enumerated().map { index, entry in
            RemoteChange(seq: Int64(index + 1), opId: entry.opId, entity: entry.entity, entityId: entry.entityId,
                         payload: entry.payload, createdAt: entry.createdAt)
        }
        #expect(remote.count == 4)
        let server = ScriptedServer()
        server.pages = [PulledPage(changes: Array(remote[0..<2]), cursor: 2, more: true),
                        PulledPage(changes: Array(remote[2..<4]), cursor: 4, more: true)]
        server.pullFailure = (after: 4, error: .signedOut)
        let service = SyncService(store: store, connection: server.connection, key: "k")
        await #expect(throws: SchoolConnectionError.signedOut) { try await service.syncOnce() }
        // Both pages before the failing one are in, with their cursor; the
        // failure is the one the server gave, so the loop ends signed out.
        #expect(server.pulls == [0, 2, 4])
        #expect(try store.syncCursor(for: "k") == 4)
        let sketch = try #require(UUID(text: remote[0].entityId))
        #expect(try store.opCount(sketch) == 3)
        #expect(await service.step() == nil)
    }

    @Test func backoffDoublesToItsLimitWithJitter() {
        let backoff = SyncBackoff(first: 2, longest: 300)
        #expect(backoff.delay(afterFailures: 1, random: 0) == 2)
        #expect(backoff.delay(afterFailures: 2, random: 0) == 4)
        #expect(backoff.delay(afterFailures: 4, random: 0) == 16)
        #expect(backoff.delay(afterFailures: 40, random: 0) == 300)
        #expect(backoff.delay(afterFailures: 3, random: 1) == 4)
        #expect(backoff.delay(afterFailures: 3, random: .nan) == 8)
        #expect(backoff.delay(afterFailures: Int.max, random: 0.5) == 225)
    }

    @Test func addressesAreReadTheWayATeacherTypesThem() {
        #expect(SchoolAddress.parse("schule.local")?.absoluteString == "https://schule.local:8470")
        #expect(SchoolAddress.parse(" 10.0.0.5:9000 ")?.absoluteString == "https://10.0.0.5:9000")
        #expect(SchoolAddress.parse("http://127.0.0.1:8470/api/v1")?.absoluteString == "http://127.0.0.1:8470")
        #expect(SchoolAddress.parse("HTTPS://Server.Schule.de")?.absoluteString == "https://Server.Schule.de:8470")
        for bad in ["", "ftp://x", "schule local", "https://:80", "https://x:99999", "https://u:p@x", "x?y=1",
                    String(repeating: "a", count: 400)] {
            #expect(SchoolAddress.parse(bad) == nil, "\(bad)")
        }
    }

    /// What the server prints, typed without "http://": tried over HTTPS
    /// and then plain HTTP; a scheme typed out is the only one tried.
    @Test func anAddressWithoutASchemeIsTriedOverHTTPSThenHTTP() {
        #expect(SchoolAddress.candidates("127.0.0.1").map(\.absoluteString)
                == ["https://127.0.0.1:8470", "http://127.0.0.1:8470"])
        #expect(SchoolAddress.candidates(" schule.local:9000 ").map(\.absoluteString)
                == ["https://schule.local:9000", "http://schule.local:9000"])
        #expect(SchoolAddress.candidates("http://10.0.0.5:8470").map(\.absoluteString) == ["http://10.0.0.5:8470"])
        #expect(SchoolAddress.candidates("https://server.schule.de").map(\.absoluteString) == ["https://server.schule.de:8470"])
        #expect(SchoolAddress.candidates("schule local").isEmpty)
    }

    /// The mark the school server knows this computer by: made once and
    /// kept privately; on a kiosk that cannot keep it, the machine's id
    /// hashed, the same at every start.
    @Test func theDeviceMarkIsKeptOrDerivedFromTheMachine() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("teamsketch-mark-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let first = DeviceMark.load(environment: ["XDG_CONFIG_HOME": home], machineID: "/nonexistent")
        #expect(DeviceMark.isWellFormed(first) && first.count == 32)
        #expect(DeviceMark.load(environment: ["XDG_CONFIG_HOME": home], machineID: "/nonexistent") == first)
        let attributes = try FileManager.default.attributesOfItem(atPath: home + "/teamsketch/device-mark")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // A home that cannot be written: a file stands where the folder would.
        let blocked = home + "/blocked"
        FileManager.default.createFile(atPath: blocked, contents: Data("x".utf8))
        let machine = home + "/machine-id"
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: machine))
        let derived = DeviceMark.load(environment: ["XDG_CONFIG_HOME": blocked], machineID: machine)
        #expect(DeviceMark.isWellFormed(derived) && !derived.contains("0123456789abcdef"))
        #expect(DeviceMark.load(environment: ["XDG_CONFIG_HOME": blocked], machineID: machine) == derived)
        let fresh = DeviceMark.load(environment: ["XDG_CONFIG_HOME": blocked], machineID: "/nonexistent")
        #expect(DeviceMark.isWellFormed(fresh) && fresh != DeviceMark.load(environment: ["XDG_CONFIG_HOME": blocked], machineID: "/nonexistent"))
        for bad in ["", "short", "has space 0000000000000000000", String(repeating: "a", count: 65), "ümlaut-00000000000000000000"] {
            #expect(!DeviceMark.isWellFormed(bad), "\(bad)")
        }
    }

    @Test func aStoredSignInIsKeptPrivateAndForgottenOnSignOut() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("teamsketch-signin-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let client = SchoolSignInClient.live(environment: ["XDG_CONFIG_HOME": home])
        #expect(client.load() == nil)
        let signIn = SchoolSignIn(server: "https://schule.local:8470", accountID: "a1", name: "Frau Berg", isTeacher: true,
                                  token: "secret", expiresAt: Date(timeIntervalSince1970: 1_790_000_000))
        try client.save(signIn)
        #expect(client.load() == signIn)
        let attributes = try FileManager.default.attributesOfItem(atPath: home + "/teamsketch/school.json")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(signIn.isValid(at: Date(timeIntervalSince1970: 1_789_999_999)))
        #expect(!signIn.isValid(at: Date(timeIntervalSince1970: 1_790_000_000)))
        try client.save(nil)
        #expect(client.load() == nil)
    }
}

final class LockedStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [SyncStatus] = []
    func append(_ status: SyncStatus) { lock.withLock { statuses.append(status) } }
    var all: [SyncStatus] { lock.withLock { statuses } }
}

final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int] = []
    func append(_ count: Int) { lock.withLock { counts.append(count) } }
    var all: [Int] { lock.withLock { counts } }
}

final class LockedDate: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    var value: Date {
        get { lock.withLock { date } }
        set { lock.withLock { date = newValue } }
    }
}
