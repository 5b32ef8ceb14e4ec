import Foundation
import HTTPTypes
import LearnModel
import Testing
@testable import SchoolServer

/// Drawing sketch images has a budget of its own (`RenderLimits`): its own
/// threads, a few images per account and in all, an ink budget per image,
/// and full-size images kept until their sketch changes.
@Suite struct RenderBudgetTests {
    private static let start = Date(timeIntervalSince1970: 1_790_000_000)

    private static func line(_ from: Point, _ to: Point, width: Double) -> Stroke {
        Stroke(id: UUID(), author: "Mia", color: RGBA(r: 0, g: 0, b: 0, a: 1), width: width, start: from,
               segments: [.line(from: from, to: to)], startedAt: start, endedAt: start.addingTimeInterval(1))
    }

    @Test func inkIsTheAreaTheStrokesSweepAtTheImagesScale() {
        var doc = SketchDocument(meta: SketchMeta(name: "Zoo"))
        doc.apply(.addStroke(Self.line(Point(0, 0), Point(100, 0), width: 10)))
        // (length + width) × width, times the scale squared.
        #expect(SketchImages.inkPixels(doc, scale: 1) == (100 + 10) * 10)
        #expect(SketchImages.inkPixels(doc, scale: 2) == (100 + 10) * 10 * 4)
        let dot = Stroke(id: UUID(), author: "Mia", color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 5, start: Point(5, 5),
                         segments: [], startedAt: Self.start, endedAt: Self.start)
        doc.apply(.addStroke(dot))
        #expect(SketchImages.inkPixels(doc, scale: 1) == 1100 + 100)
        // Within the budget, the width asked for; beyond, smaller by the
        // square root of how far beyond.
        #expect(SketchImages.width(1600, of: doc, inkBudget: 1e9) == 1600)
        let cost = SketchImages.inkPixels(doc, scale: 1)
        #expect(SketchImages.width(1600, of: doc, inkBudget: cost / 4) == 800)
    }

    /// Two places per account and three in all: the rest wait in line,
    /// each taking the first place it may use, up to the line's caps.
    @Test func placesArePerAccountAndInAllAndTheRestWaitInLine() async throws {
        var limits = RenderLimits()
        limits.perAccount = 2
        limits.total = 3
        limits.waitingPerAccount = 1
        limits.waitingInAll = 2
        let places = RenderPlaces(limits: limits)
        let (mia, ole, ben) = (UUID(), UUID(), UUID())
        try await places.acquire(mia)
        try await places.acquire(mia)
        try await places.acquire(ole)
        // Mia's third waits; a fourth of hers cannot even wait.
        let third = Task { try await places.acquire(mia) }
        while await places.queue.waiting < 1 { await Task.yield() }
        await #expect(throws: RenderPlaces.Refusal.accountBusy) { try await places.acquire(mia) }
        let bens = Task { try await places.acquire(ben) }
        while await places.queue.waiting < 2 { await Task.yield() }
        await #expect(throws: RenderPlaces.Refusal.serverBusy) { try await places.acquire(UUID()) }
        // Ole's place frees: Mia still has two, so Ben, behind her, goes.
        await places.release(ole)
        try await bens.value
        #expect(await places.queue.waiting == 1)
        await places.release(mia)
        try await third.value
        #expect(await places.queue.waiting == 0)
    }

    /// A full-size image is drawn once per op count: asked again, it comes
    /// from memory without reading the sketch's ops.
    @Test func aFullSizeImageIsKeptUntilTheSketchChanges() async throws {
        let renderer = SketchRenderer(limits: RenderLimits())
        let sketch = SyncStore.SketchRecord(id: UUID(), name: "Zoo", width: 160, height: 100, createdAt: 0, modifiedAt: 0,
                                            opCount: 1, authors: [])
        let payload = String(decoding: try SketchOpPayload.encode(.addStroke(Self.line(Point(0, 0), Point(100, 50), width: 4))),
                             as: UTF8.self)
        let reads = Counter()
        let first = try await renderer.png(sketch, for: UUID(), width: 160, cacheKey: "zoo:1") { reads.add(); return [payload] }
        let again = try await renderer.png(sketch, for: UUID(), width: 160, cacheKey: "zoo:1") { reads.add(); return [payload] }
        #expect(first == again && reads.value == 1 && renderer.imagesDrawn == 1)
        _ = try await renderer.png(sketch, for: UUID(), width: 160, cacheKey: "zoo:2") { reads.add(); return [payload] }
        #expect(reads.value == 2 && renderer.imagesDrawn == 2)
    }

    /// The push that once slowed every sign-in (docs/PERFORMANCE.md,
    /// "Signing in while the server draws"): 300 strokes a thousand units
    /// wide across the sheet. Its full-size image comes back smaller,
    /// within the budget, and a plain sketch's at full size.
    @Test(arguments: Backend.allCases)
    func aSketchOfHugeStrokesIsDrawnSmallerWithinTheBudget(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let wide = UUID(), plain = UUID()
            var changes = [Changes.create(wide, name: "Breit")]
            for i in 0..<300 {
                changes.append(Changes.op(.addStroke(Self.line(Point(0, Double(i)), Point(1600, 1000 - Double(i)), width: 1000)),
                                          in: wide))
            }
            #expect(try await api.push(changes, token: mia.token).accepted.count == 301)
            #expect(try await api.push([Changes.create(plain), Changes.stroke(plain)], token: mia.token).accepted.count == 2)

            func pngWidth(_ sketch: UUID) async throws -> Int {
                let answer = try await api.call(.get, "/sketches/\(sketch.key)/image", token: mia.token)
                #expect(answer.status == .ok && answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                return answer.body.count > 20 ? answer.body[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
            }
            let width = try await pngWidth(wide)
            #expect(width > 0 && width < 1600, "\(width)")
            #expect(try await pngWidth(plain) == 1600)
        }
    }

    /// Beyond the line, the answer says when to ask again; nothing is drawn.
    @Test func aDrawingBeyondTheLineIsRefusedWithWhenToAskAgain() async throws {
        var server = TestServer(.sqlite)
        server.configuration.rendering.perAccount = 0
        server.configuration.rendering.waitingPerAccount = 0
        try await server.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token)
            let busy = try await api.call(.get, "/sketches/\(sketch.key)/image", token: mia.token)
            #expect(busy.status == .tooManyRequests && busy.headers[.retryAfter] == "2")
        }
    }
}

/// Counts calls from a closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.withLock { n } }
    func add() { lock.withLock { n += 1 } }
}
