import ArgumentParser
import Dispatch
import Foundation
import LearnModel
import LearnNet
import TeamsketchDesktopApp
import TeamsketchCommandSupport

/// `TeamsketchTools bench-session [--seconds N]`: a host and three members
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
        let group = try await DrawingGroup.start(name: "Peer", peers: peers) { _, event in recorder.received(event) }
        let host = group.host, clients = group.clients

        let devices = group.pens
        let duration = Duration.milliseconds(Int(seconds * 1000))
        let samplesPerFrame = max(1, rate / 60)
        let clock = ContinuousClock()
        let end = clock.now + duration
        let stats = QueueSampler()
        async let sampling: Void = stats.run(until: end, host: host, clients: clients)
        let drawn = try await group.draw(until: end, samplesPerFrame: samplesPerFrame, recorder: recorder)
        await sampling
        try await DrawingGroup.waitFor("every device to hold \(drawn) strokes") {
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

    static func report(_ name: String, _ value: Double, _ unit: String) {
        let text = value.isNaN ? "nan"
            : value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.3g", value)
        SessionCommandSupport.say("\(name): \(text) \(unit)")
    }
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
