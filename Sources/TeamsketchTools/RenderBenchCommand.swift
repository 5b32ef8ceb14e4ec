import ArgumentParser
import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchDesktopApp

/// `TeamsketchTools bench-render --server URL --teacher NAME`: how long a
/// teacher's sign-in takes while pupils have the server draw big sketches.
/// Four pupils each push a sketch of 300 strokes a thousand units wide (as
/// much ink as a full-size image may cost), then ask for its full-size
/// image over and over, adding a stroke before each ask so none comes
/// from the cache. Meanwhile the teacher signs in again and again.
struct RenderBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-render",
        abstract: "Benchmark sign-in while the school server draws big sketches.",
        shouldDisplay: false)

    @OptionGroup var account: BenchTeacherOptions

    @Option(help: "Pupils asking for images at once.")
    var clients = 4

    @Option(help: "Teacher sign-ins to time.")
    var signIns = 30

    func validate() throws {
        guard (1...32).contains(clients) else { throw ValidationError("--clients must be 1…32.") }
        guard (5...1000).contains(signIns) else { throw ValidationError("--sign-ins must be 5…1000.") }
    }

    func run() throws {
        let command = self
        try HeadlessMainLoop.runBlocking { try await command.bench() }
    }

    private func bench() async throws {
        try await account.withClient { try await measure($0) }
    }

    private func measure(_ client: SchoolServerClient) async throws {
        let teacher = try await account.signIn(client)
        let classID = try await client.createClass(named: "Render \(UUID().uuidString.prefix(6))", token: teacher.token)
        var pupils: [(token: String, sketch: UUID)] = []
        for n in 0..<clients {
            let id = try await client.addPupil(named: "Kind \(n + 1)", toClass: classID, token: teacher.token)
            try await client.setPictures([0, 1, 2], pupil: id, token: teacher.token)
            let token = try await client.signInPupil(id: id, pictures: [0, 1, 2]).token
            let sketch = SketchMeta(name: "Breit \(n + 1)")
            var entries = [try Self.entry(SketchChange.create(sketch, origin: .alone(creator: nil), at: 1), of: sketch.id)]
            for i in 0..<300 { entries.append(try Self.stroke(i, in: sketch.id)) }
            _ = try await client.connection(token: token).push(entries)
            pupils.append((token, sketch.id))
        }
        let drawing = DrawingLog()
        let times = try await withThrowingTaskGroup(of: [Double].self) { group in
            for (n, pupil) in pupils.enumerated() {
                group.addTask {
                    var i = 300 + n * 100_000
                    while !drawing.stopped {
                        _ = try await client.sketchImage(pupil.sketch, token: pupil.token)
                        drawing.drew()
                        i += 1
                        _ = try await client.connection(token: pupil.token).push([try Self.stroke(i, in: pupil.sketch)])
                    }
                    return []
                }
            }
            group.addTask {
                // Sign-ins start once the drawing has.
                while drawing.count < clients { try await Task.sleep(for: .milliseconds(50)) }
                var times: [Double] = []
                for _ in 0..<signIns {
                    times.append(try await Stopwatch.seconds { () async throws in _ = try await account.signIn(client) })
                }
                drawing.stop()
                return times
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        let sorted = times.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        print(String(format: "signin_p50_under_render_load: %.0f ms", percentile(0.5)))
        print(String(format: "signin_p99_under_render_load: %.0f ms", percentile(0.99)))
        print("render_images_drawn: \(drawing.count) images")
        fflush(nil)
    }

    /// A stroke a thousand units wide across the sheet.
    private static func stroke(_ i: Int, in sketch: UUID) throws -> OutboxEntry {
        let y = Double(i % 1000)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let op = SketchOp.addStroke(Stroke(id: UUID(), author: "Kind", color: RGBA(r: 0.2, g: 0.4, b: 0.8, a: 1), width: 1000,
                                           start: Point(0, y), segments: [.line(from: Point(0, y), to: Point(1600, 1000 - y))],
                                           startedAt: start, endedAt: start.addingTimeInterval(1)))
        return OutboxEntry(opId: SketchOpIdentity.id(of: op, in: sketch), entity: .sketchOp,
                           entityId: sketch.lowercasedText, payload: try SketchOpPayload.encode(op), createdAt: start)
    }

    private static func entry(_ change: SketchChange, of sketch: UUID) throws -> OutboxEntry {
        OutboxEntry(opId: SketchOpIdentity.creation(of: sketch), entity: .sketch, entityId: sketch.lowercasedText,
                    payload: try change.encoded(), createdAt: Date())
    }
}

/// How many images were drawn, and whether to stop.
private final class DrawingLog: @unchecked Sendable {
    private let lock = NSLock()
    private var drawn = 0
    private var done = false
    var count: Int { lock.withLock { drawn } }
    var stopped: Bool { lock.withLock { done } }
    func drew() { lock.withLock { drawn += 1 } }
    func stop() { lock.withLock { done = true } }
}
