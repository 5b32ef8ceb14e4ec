import ArgumentParser
import Foundation
import LearnModel
import LearnNet
import SchoolClient
import TeamsketchCore
import TeamsketchDesktopApp
import TeamsketchCommandSupport

/// `TeamsketchTools bench-relay --server URL --teacher NAME`: many groups
/// of four drawing at once through a running school server's relay (the
/// teacher's password in TEAMSKETCH_PASSWORD), each device signed in as a
/// pupil of the teacher's new classes: every member's socket goes through
/// the server, as for a class whose machines cannot reach each other. Prints the latency from a segment leaving its builder to it being
/// applied on each other device of its group (p50, p99, max), over all
/// groups, and whether every group's copies agree.
struct RelayBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-relay",
        abstract: "Benchmark sessions through the school server's relay.")

    @OptionGroup var account: BenchTeacherOptions

    @Option(help: "Groups of four drawing at once.")
    var groups = 30

    @Option(help: "How long everyone draws.")
    var seconds = 60.0

    @Option(help: "Pen samples a second per device.")
    var rate = 120

    func validate() throws {
        guard (1...100).contains(groups) else { throw ValidationError("--groups must be 1…100.") }
        guard seconds > 0 else { throw ValidationError("--seconds must be positive.") }
        guard (60...2000).contains(rate) else { throw ValidationError("--rate must be 60…2000.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.bench() }
    }

    private func bench() async throws {
        let address = account.address
        let client = try SchoolServerClient(address: address)
        let classroom: BenchClassroom
        do {
            let teacher = try await account.signIn(client)
            classroom = try await BenchClassroom.make(pupils: groups * 4, client: client, teacherToken: teacher.token)
        } catch {
            throw CLIFailure(message: "the school server: \(error)")
        }
        await client.shutdown()
        let recorder = LatencyRecorder()
        var started: [DrawingGroup] = []
        for (g, group) in classroom.groups.enumerated() {
            guard let classID = group.classID.uuid else { throw CLIFailure(message: "the class id \(group.classID) is not a UUID") }
            let endpoints = group.pupils.map {
                RelayEndpoint(host: address.host ?? "127.0.0.1", port: address.port ?? SchoolAddress.defaultPort,
                              token: $0.token, secure: address.scheme == "https")
            }
            started.append(try await DrawingGroup.start(name: "Group \(g + 1)", peers: 4,
                                                        relay: (endpoints, classID)) { _, event in
                recorder.received(event)
            })
        }
        let all = started
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let samplesPerFrame = max(1, rate / 60)
        let drawn = try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
            for (g, group) in all.enumerated() {
                tasks.addTask { (g, try await group.draw(until: end, samplesPerFrame: samplesPerFrame, seed: g, recorder: recorder)) }
            }
            return try await tasks.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        var identical = true
        for (g, group) in all.enumerated() {
            let strokes = drawn[g] ?? 0
            try await DrawingGroup.waitFor("group \(g + 1) to hold \(strokes) strokes") {
                for pen in group.pens where await pen.document().strokes.count != strokes { return false }
                return true
            }
            let reference = await group.host.document()
            for c in group.clients where await c.document() != reference { identical = false }
        }
        for group in all { await group.host.end() }

        let latencies = recorder.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        SessionBenchCommand.report("relay_groups", Double(groups), "groups")
        SessionBenchCommand.report("relay_latency_p50", percentile(0.50) * 1000, "ms")
        SessionBenchCommand.report("relay_latency_p99", percentile(0.99) * 1000, "ms")
        SessionBenchCommand.report("relay_latency_max", (latencies.last ?? .nan) * 1000, "ms")
        SessionBenchCommand.report("relay_segments_applied", Double(latencies.count) / seconds, "segments/s")
        SessionBenchCommand.report("relay_documents_identical", identical ? 1 : 0, "bool")
    }
}
