import ArgumentParser
import Foundation
import LearnModel
import LearnNet
import NIOPosix
import TeamsketchDesktopApp
import TeamsketchCommandSupport

/// `TeamsketchTools bench-wall`: the class wall on a classroom laptop.
/// Eight groups of four (over loopback, in this process) draw at the pen's
/// pace, 240 samples a second each; one wall watches them all, its watchers
/// and its painting on a thread of their own, as the teacher's machine
/// would. Prints the time from a segment leaving a pupil's stroke builder
/// to the wall frame that painted it (p50, p99, max) and the share of one
/// core the wall's thread used.
struct WallBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-wall",
        abstract: "Benchmark the class wall: groups drawing over loopback, one machine watching them all.")

    @Option(help: "How long everyone draws.")
    var seconds = 60.0

    @Option(help: "Groups drawing.")
    var groups = 8

    @Option(help: "Devices in each group, host included (2–4).")
    var peers = 4

    @Option(help: "Pen samples a second per device.")
    var rate = 240

    @Option(help: "A wall cell's sheet in pixels (a 4 × 2 wall on a 1920 × 1080 projector).")
    var cellWidth = 460

    @Option(help: "A wall cell's sheet height in pixels.")
    var cellHeight = 300

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive.") }
        guard (1...12).contains(groups) else { throw ValidationError("--groups must be 1…12.") }
        guard (2...4).contains(peers) else { throw ValidationError("--peers must be 2…4.") }
        guard (60...2000).contains(rate) else { throw ValidationError("--rate must be 60…2000.") }
        guard (64...2048).contains(cellWidth), (64...2048).contains(cellHeight) else {
            throw ValidationError("--cell-width and --cell-height must be 64…2048.")
        }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.bench() }
    }

    private func bench() async throws {
        let recorder = LatencyRecorder()
        var teams: [DrawingGroup] = []
        for g in 0..<groups { teams.append(try await DrawingGroup.start(name: "Group \(g + 1)", peers: peers)) }

        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let wall = try HeadlessWall(groups: groups, cellWidth: cellWidth, cellHeight: cellHeight, recorder: recorder)
        var watchers: [SessionClient] = []
        for (g, team) in teams.enumerated() {
            var c = SessionClient.Configuration(host: "127.0.0.1", port: team.host.port, name: "Teacher", role: .observer)
            c.log = .silent
            do {
                watchers.append(try await SessionClient.connect(c, group: loop, onEvent: { wall.handle(g, $0) }))
            } catch {
                throw CLIFailure(message: error.description)
            }
        }
        let wallLoop = loop.next()
        let groups = self.groups
        try await DrawingGroup.waitFor("the wall to watch every group") {
            (try? await wallLoop.submit { wall.watching }.get()) == groups
        }

        let cpuStart = try await wallLoop.submit { HeadlessWall.threadCPUSeconds() }.get()
        let started = ContinuousClock.now
        let ticker = wallLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .nanoseconds(16_666_667)) { _ in
            wall.frame()
        }
        let end = started + .milliseconds(Int(seconds * 1000))
        let samplesPerFrame = max(1, rate / 60)
        let drawn = try await withThrowingTaskGroup(of: Int.self) { group in
            for (g, team) in teams.enumerated() {
                group.addTask { try await team.draw(until: end, samplesPerFrame: samplesPerFrame, seed: g, recorder: recorder) }
            }
            return try await group.reduce(0, +)
        }
        let cpuEnd = try await wallLoop.submit { HeadlessWall.threadCPUSeconds() }.get()
        let elapsed = ContinuousClock.now - started
        ticker.cancel()
        let frames = try await wallLoop.submit { wall.framesPainted }.get()
        for w in watchers { await w.leave() }
        for team in teams { await team.host.end() }
        try? await loop.shutdownGracefully()

        let wallSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let latencies = recorder.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        SessionBenchCommand.report("wall_latency_p50", percentile(0.50) * 1000, "ms")
        SessionBenchCommand.report("wall_latency_p99", percentile(0.99) * 1000, "ms")
        SessionBenchCommand.report("wall_latency_max", (latencies.last ?? .nan) * 1000, "ms")
        SessionBenchCommand.report("wall_cpu_share", (cpuEnd - cpuStart) / wallSeconds, "cores")
        SessionBenchCommand.report("wall_segments_painted", Double(latencies.count) / wallSeconds, "segments/s")
        SessionBenchCommand.report("wall_cell_frames", Double(frames) / wallSeconds, "frames/s")
        SessionBenchCommand.report("wall_strokes_drawn", Double(drawn), "strokes")
    }
}
