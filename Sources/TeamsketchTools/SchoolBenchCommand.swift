import ArgumentParser
import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchDesktopApp
import TeamsketchCommandSupport

/// `TeamsketchTools bench-school --server URL --teacher NAME`: the school
/// server under a school's load, measured from the client side (the
/// teacher's password in TEAMSKETCH_PASSWORD). Two figures, each on both
/// databases by scripts/bench.sh (docs/PERFORMANCE.md):
/// - transfer: a store with one sketch of `--ops` stroke ops is pushed by
///   the app's sync service, then pulled into an empty store by another
///   device of the same account; seconds for each way.
/// - load: `--clients` pupils (a school's 30 groups of 4) each push their
///   strokes to their group's sketch (the group's other devices push the
///   same ops again, as after a LAN session) and pull every few seconds,
///   for `--seconds`; the latency of every request, and every error.
/// Prints `NAME: VALUE UNIT` lines.
struct SchoolBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-school",
        abstract: "Benchmark the school server: a big push and pull, and a school's load.",
        shouldDisplay: false)

    @OptionGroup var account: BenchTeacherOptions

    @Option(help: "Stroke ops in the pushed and pulled sketch.")
    var ops = 10_000

    @Option(help: "Pupils syncing at once in the load run (0: no load run).")
    var clients = 120

    @Option(help: "Length of the load run in seconds.")
    var seconds = 60

    @Option(help: "Folder for the two stores.")
    var dir: String

    func validate() throws {
        guard (1...200_000).contains(ops) else { throw ValidationError("--ops must be 1…200000.") }
        guard (0...400).contains(clients), clients % 4 == 0 else { throw ValidationError("--clients must be 0…400, in fours.") }
        guard (1...3600).contains(seconds) else { throw ValidationError("--seconds must be 1…3600.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.bench() }
    }

    private func bench() async throws {
        try await account.withClient { client in
            let signedIn = try await account.signIn(client)
            try await transfer(client, signedIn)
            if clients > 0 { try await load(client, teacherToken: signedIn.token) }
        }
    }

    // MARK: transfer

    private func transfer(_ client: SchoolServerClient, _ signedIn: SchoolServerClient.SignedIn) async throws {
        let pushing = try LocalStore(path: dir + "/bench-push-\(UUID().uuidString).sqlite")
        let pulling = try LocalStore(path: dir + "/bench-pull-\(UUID().uuidString).sqlite")
        var doc = SketchGenerator(seed: 3).document(strokes: ops, pointsPerStroke: 30)
        doc.meta.name = "bench \(ops)"
        try pushing.saveSketch(doc)
        let connection = client.connection(token: signedIn.token)
        let push = SyncService(store: pushing, connection: connection, key: "push")
        let pushTime = try await Stopwatch.seconds { () async throws in _ = try await push.syncOnce() }
        guard try pushing.outboxCount() == 0 else { throw CLIFailure(message: "the push left changes waiting") }
        // Another device of the same account starts from nothing.
        let pull = SyncService(store: pulling, connection: connection, key: "pull")
        let pullTime = try await Stopwatch.seconds { () async throws in _ = try await pull.syncOnce() }
        guard try pulling.opCount(doc.meta.id) == ops else { throw CLIFailure(message: "the pull did not bring every op") }
        print(String(format: "sync_push_%d_ops: %.2f s", ops, pushTime))
        print(String(format: "sync_pull_%d_ops: %.2f s", ops, pullTime))
        fflush(nil)
    }

    // MARK: load

    private func load(_ client: SchoolServerClient, teacherToken: String) async throws {
        let groups = try await BenchClassroom.make(pupils: clients, client: client, teacherToken: teacherToken).groups
        let tokens = groups.flatMap(\.pupils)
        let latencies = LatencyLog()
        // Each laptop has its own client, and so its own connections to the
        // server, as in a classroom. One client for all 120 queued their
        // requests behind its eight connections: most of the slowest
        // requests were waiting inside this program, not for the server.
        var devices: [SchoolServerClient] = []
        do {
            for _ in tokens { devices.append(try SchoolServerClient(address: client.address)) }
            try await drive(groups, on: devices, latencies: latencies, until: ContinuousClock.now + .seconds(seconds))
        } catch {
            for device in devices { await device.shutdown() }
            throw error
        }
        for device in devices { await device.shutdown() }
        let sorted = latencies.samples.sorted()
        guard !sorted.isEmpty else { throw CLIFailure(message: "no request was made") }
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        print("school_load_clients: \(tokens.count) clients")
        print(String(format: "school_load_requests_per_s: %.0f requests/s", Double(sorted.count) / Double(seconds)))
        print(String(format: "school_load_p50: %.1f ms", percentile(0.5)))
        print(String(format: "school_load_p99: %.1f ms", percentile(0.99)))
        print(String(format: "school_load_max: %.1f ms", sorted.last! * 1000))
        print("school_load_errors: \(latencies.errors) errors")
        print("school_load_refused_changes: \(latencies.refusals) changes")
        fflush(nil)
    }

    private func drive(_ groups: [BenchClassroom.Group], on devices: [SchoolServerClient], latencies: LatencyLog,
                       until deadline: ContinuousClock.Instant) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (groupNumber, members) in groups.map(\.pupils).enumerated() {
                let sketch = SketchMeta(name: "Gruppe")
                let shared = SharedOps()
                let accounts = members.map(\.account)
                for (index, member) in members.enumerated() {
                    let connection = devices[groupNumber * 4 + index].connection(token: member.token)
                    let strokes = SketchGenerator(seed: UInt64(1000 + groupNumber * 4 + index))
                        .strokes(count: seconds * 3, pointsPerStroke: 40)
                    group.addTask {
                        try await Self.pupil(index: index, accounts: accounts, sketch: sketch, strokes: strokes,
                                             connection: connection, shared: shared, latencies: latencies, until: deadline)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// One pupil's device: a stroke every half second or so (pushed with
    /// what the group drew since, as a device that was in the LAN session
    /// does), a pull every few seconds.
    private static func pupil(index: Int, accounts: [UUID], sketch: SketchMeta, strokes: [Stroke], connection: SchoolConnection,
                              shared: SharedOps, latencies: LatencyLog,
                              until deadline: ContinuousClock.Instant) async throws {
        var cursor: Int64 = 0
        var pushedUpTo = 0
        var round = 0
        // The host's laptop starts the team sketch and names the three it
        // let in; each member's laptop names itself before its first op.
        let now = UnixMilliseconds.milliseconds(Date())
        func member(_ account: UUID) throws -> OutboxEntry {
            OutboxEntry(opId: SketchOpIdentity.member(account, of: sketch.id), entity: .sketch,
                        entityId: sketch.id.lowercasedText,
                        payload: try SketchChange.member(account, at: now).encoded(), createdAt: Date())
        }
        if index == 0 {
            let create = OutboxEntry(opId: SketchOpIdentity.creation(of: sketch.id), entity: .sketch, entityId: sketch.id.lowercasedText,
                                     payload: try SketchChange.create(sketch, origin: .team(creator: accounts[0]), at: now).encoded(),
                                     createdAt: Date())
            if let outcome = await latencies.time({ try await connection.push([create] + accounts.dropFirst().map(member)) }) {
                latencies.refused(outcome.refused.count)
            }
            shared.created()
        } else {
            await shared.waitUntilCreated()
            if let outcome = await latencies.time({ try await connection.push([try member(accounts[index])]) }) {
                latencies.refused(outcome.refused.count)
            }
        }
        for stroke in strokes where ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(Int.random(in: 350...650)))
            let op = SketchOp.addStroke(stroke)
            shared.append(OutboxEntry(opId: SketchOpIdentity.id(of: op, in: sketch.id), entity: .sketchOp, entityId: sketch.id.lowercasedText,
                                      payload: try SketchOpPayload.encode(op), createdAt: Date()))
            let all = shared.all
            let batch = Array(all[pushedUpTo...].suffix(50))
            pushedUpTo = all.count
            var pushID: UUID?
            if let outcome = await latencies.time({ try await connection.push(batch) }) {
                latencies.refused(outcome.refused.count)
                pushID = outcome.pushId
            }
            round += 1
            // A pull right after a push leaves that push out, as a sync
            // round of the app does (the pushes before it come back).
            if round % 5 == index % 5 {
                let skipping = pushID.map { [$0] } ?? []
                if let page = await latencies.time({ try await connection.pull(cursor, 500, skipping) }) { cursor = page.cursor }
            }
        }
    }
}

/// The ops a group drew, shared by its four simulated devices.
private final class SharedOps: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [OutboxEntry] = []
    private var isCreated = false

    func append(_ entry: OutboxEntry) { lock.withLock { entries.append(entry) } }
    var all: [OutboxEntry] { lock.withLock { entries } }
    func created() { lock.withLock { isCreated = true } }

    func waitUntilCreated() async {
        while !lock.withLock({ isCreated }) { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

/// Every request's latency in seconds, and how many failed.
private final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    private var failures = 0

    private var refusedChanges = 0

    var samples: [Double] { lock.withLock { values } }
    var errors: Int { lock.withLock { failures } }
    var refusals: Int { lock.withLock { refusedChanges } }
    func refused(_ count: Int) { lock.withLock { refusedChanges += count } }

    func time<T>(_ body: () async throws -> T) async -> T? {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            let elapsed = ContinuousClock.now - start
            lock.withLock { values.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) }
            return value
        } catch {
            lock.withLock { failures += 1 }
            return nil
        }
    }
}
