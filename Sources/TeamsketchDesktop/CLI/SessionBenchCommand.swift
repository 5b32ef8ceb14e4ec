import ArgumentParser
import Dispatch
import Foundation
import LearnModel
import LearnNet

/// `TeamsketchDesktop bench-session [--seconds N]`: a host and three members
/// in this process, over loopback TCP, each drawing continuously at 240
/// samples a second (a StrokeBuilder fed a synthetic pen path, one frame's
/// samples every 1/60 s, as GTK delivers them). Prints `NAME: VALUE UNIT`
/// lines: latency from a segment leaving its builder to it being applied on
/// each other device (p50, p99, max), wire bytes a second, and the largest
/// per-connection queue in the first and the second half of the run (equal
/// halves mean no growth).
struct SessionBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-session",
        abstract: "Benchmark a 4-device LAN session over loopback.")

    @Option(help: "How long everyone draws.")
    var seconds = 300.0

    @Option(help: "Pen samples a second per device.")
    var rate = 240

    @Option(help: "Devices drawing, host included (2–4).")
    var peers = 4

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive.") }
        guard (60...2000).contains(rate) else { throw ValidationError("--rate must be 60…2000.") }
        guard (2...4).contains(peers) else { throw ValidationError("--peers must be 2…4.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.bench() }
    }

    private func bench() async throws {
        let recorder = LatencyRecorder()
        var hostConfig = SessionHost.Configuration(name: "Host", params: SessionParams(name: "Bench"))
        hostConfig.bindHost = "127.0.0.1"
        hostConfig.acceptAll = true
        hostConfig.log = .silent
        let host = try await SessionHost.start(hostConfig, onEvent: recorder.handler(device: 0))
        var clients: [SessionClient] = []
        for i in 1..<peers {
            var c = SessionClient.Configuration(host: "127.0.0.1", port: host.port, name: "Peer \(i)")
            c.log = .silent
            do {
                clients.append(try await SessionClient.connect(c, onEvent: recorder.handler(device: i)))
            } catch {
                throw CLIFailure(message: error.description)
            }
        }
        try await waitFor("members accepted") { await host.lobby().connectedDrawers == peers }
        host.start()
        for c in clients { try await waitFor("start") { await c.state().phase == .started } }

        let devices: [any BenchPen] = [host] + clients
        let duration = Duration.milliseconds(Int(seconds * 1000))
        let samplesPerFrame = max(1, rate / 60)
        let clock = ContinuousClock()
        let end = clock.now + duration
        let stats = QueueSampler()
        async let sampling: Void = stats.run(until: end, host: host, clients: clients)
        let drawn = try await withThrowingTaskGroup(of: Int.self) { group in
            for (i, pen) in devices.enumerated() {
                group.addTask {
                    try await Self.draw(pen, device: i, until: end, samplesPerFrame: samplesPerFrame, recorder: recorder)
                }
            }
            return try await group.reduce(0, +)
        }
        await sampling
        try await waitFor("every device to hold \(drawn) strokes") {
            for pen in devices where await pen.document().strokes.count != drawn { return false }
            return true
        }
        let reference = await host.document()
        var identical = true
        for c in clients where await c.document() != reference { identical = false }
        var wire = await host.statistics().bytesSent
        for c in clients { wire += await c.statistics().bytesSent }
        await host.end()

        let latencies = recorder.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        Self.report("session_latency_p50", percentile(0.50) * 1000, "ms")
        Self.report("session_latency_p99", percentile(0.99) * 1000, "ms")
        Self.report("session_latency_max", (latencies.last ?? .nan) * 1000, "ms")
        Self.report("session_segments_applied", Double(latencies.count) / seconds, "segments/s")
        Self.report("session_wire_bytes", Double(wire) / seconds, "B/s")
        Self.report("session_queue_peak_first_half", Double(stats.firstHalfPeak), "bytes")
        Self.report("session_queue_peak_second_half", Double(stats.secondHalfPeak), "bytes")
        Self.report("session_documents_identical", identical ? 1 : 0, "bool")
        Self.report("session_strokes", Double(drawn), "strokes")
    }

    /// One device drawing: a new stroke every two seconds, a frame's samples
    /// (rate / 60) every 1/60 s. Returns the strokes drawn.
    private static func draw(_ pen: any BenchPen, device: Int, until end: ContinuousClock.Instant,
                             samplesPerFrame: Int, recorder: LatencyRecorder) async throws -> Int {
        let clock = ContinuousClock()
        let frame = Duration.nanoseconds(16_666_667)
        var path = PenPath(seed: UInt64(device + 1))
        var strokes = 0
        var next = clock.now
        while clock.now < end {
            var builder = StrokeBuilder(author: "", pen: Pen(color: PenColor.allCases[(device * 3 + strokes) % 12], width: .fine),
                                        start: path.next(), at: Date())
            pen.beginStroke(id: builder.id, color: builder.color, width: builder.width, start: builder.start)
            for _ in 0..<120 {
                let first = builder.segments.count
                var segments: [CubicSegment] = []
                for _ in 0..<samplesPerFrame { segments += builder.add(path.next()) }
                if !segments.isEmpty {
                    recorder.sent(builder.id, from: first, count: segments.count)
                    pen.addSegments(segments, to: builder.id)
                }
                next += frame
                try await Task.sleep(until: next, tolerance: .microseconds(100), clock: clock)
                if clock.now >= end { break }
            }
            let first = builder.segments.count
            let tail = builder.finish(at: Date()).tail
            if !tail.isEmpty {
                recorder.sent(builder.id, from: first, count: tail.count)
                pen.addSegments(tail, to: builder.id)
            }
            pen.endStroke(builder.id)
            strokes += 1
        }
        return strokes
    }

    private func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw CLIFailure(message: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static func report(_ name: String, _ value: Double, _ unit: String) {
        let text = value.isNaN ? "nan"
            : value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.3g", value)
        SessionCommandSupport.say("\(name): \(text) \(unit)")
    }
}

protocol BenchPen: Sendable {
    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
    func addSegments(_ segments: [CubicSegment], to id: UUID)
    func endStroke(_ id: UUID)
    func document() async -> SketchDocument
}

extension SessionHost: BenchPen {}
extension SessionClient: BenchPen {}

/// A hand-like pen path: smooth loops over the canvas at ~2.5 units a
/// sample, with a little tremor.
struct PenPath {
    private var rng: SplitMix64
    private var t: Double
    private let phase: Double

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        t = 0
        phase = Double(seed)
    }

    mutating func next() -> Point {
        t += 0.004
        let x = 800 + 600 * sin(t * 1.3 + phase) + 80 * sin(t * 7.1)
        let y = 500 + 380 * sin(t * 1.7 + phase * 0.7) + 60 * cos(t * 5.3)
        return Point(x + rng.nextDouble(in: -0.3...0.3), y + rng.nextDouble(in: -0.3...0.3))
    }
}

/// When each segment left its builder, and how long it took to be applied
/// on every other device.
final class LatencyRecorder: @unchecked Sendable {
    private struct Key: Hashable {
        var stroke: UUID
        var index: Int
    }

    private let lock = NSLock()
    private var sentAt: [Key: UInt64] = [:]
    private var samples: [Double] = []

    func sent(_ stroke: UUID, from first: Int, count: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            for i in first..<first + count { sentAt[Key(stroke: stroke, index: i)] = now }
        }
    }

    func handler(device: Int) -> @Sendable (SessionEvent) -> Void {
        { [self] event in
            guard case .strokeExtended(let id, _, let first, let segments, false) = event else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            lock.withLock {
                for i in first..<first + segments.count {
                    if let t0 = sentAt[Key(stroke: id, index: i)] { samples.append(Double(now &- t0) / 1e9) }
                }
            }
        }
    }

    var latencies: [Double] { lock.withLock { samples } }
}

/// Samples the largest per-connection backlog once a second.
final class QueueSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peaks: [Int] = []

    func run(until end: ContinuousClock.Instant, host: SessionHost, clients: [SessionClient]) async {
        while ContinuousClock.now < end {
            try? await Task.sleep(for: .seconds(1))
            var peak = await host.statistics(resetPeak: true).peakQueuedBytes
            for c in clients { peak = max(peak, await c.statistics(resetPeak: true).peakQueuedBytes) }
            lock.withLock { peaks.append(peak) }
        }
    }

    var firstHalfPeak: Int { lock.withLock { peaks.prefix(peaks.count / 2).max() ?? 0 } }
    var secondHalfPeak: Int { lock.withLock { peaks.suffix(peaks.count - peaks.count / 2).max() ?? 0 } }
}
