import Foundation
import LearnModel
import LearnNet
import TeamsketchCommandSupport

protocol BenchPen: Sendable {
    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
    func addSegments(_ segments: [CubicSegment], to id: UUID)
    func endStroke(_ id: UUID)
    func document() async -> SketchDocument
}

extension SessionHost: BenchPen {}
extension SessionClient: BenchPen {}

/// One team drawing over loopback: a host and its members, every device
/// drawing a hand-like path at the pen's pace. The LAN session bench runs
/// one, the class wall's bench and `draw-groups` several.
struct DrawingGroup: Sendable {
    let host: SessionHost
    let clients: [SessionClient]

    var pens: [any BenchPen] { [host] + clients }

    /// A host (on loopback unless told) letting everyone in (watchers too), and
    /// `peers - 1` members, started once all are in.
    /// `relay`: the members come through the school server's relay instead
    /// (the host offers the session there for the class), each device
    /// signed in as its own pupil: `endpoints[0]` the host's, then one for
    /// each member.
    static func start(name: String, peers: Int, bind: String = "127.0.0.1", hostConfig: SessionHost.Configuration? = nil,
                      relay: (endpoints: [RelayEndpoint], classID: UUID)? = nil,
                      onEvent: @escaping @Sendable (Int, SessionEvent) -> Void = { _, _ in }) async throws -> DrawingGroup {
        var config = hostConfig ?? SessionHost.Configuration(name: name, params: SessionParams(name: "\(name)'s sketch"))
        config.bindHost = bind
        config.acceptAll = true
        config.log = .silent
        let host: SessionHost
        do {
            host = try await PortSelection.firstFree(PortSelection.sessionPorts + [0]) { [config] port in
                var c = config
                c.port = port
                return try await SessionHost.start(c) { onEvent(0, $0) }
            }
        } catch {
            throw CLIFailure(message: error.description)
        }
        if let relay {
            guard relay.endpoints.count == peers else {
                throw CLIFailure(message: "the relay: \(relay.endpoints.count) sign-ins for \(peers) devices")
            }
            do {
                try await host.relay(through: relay.endpoints[0], sessionName: config.params.name, classID: relay.classID)
            } catch {
                throw CLIFailure(message: "the relay: \(error)")
            }
        }
        var clients: [SessionClient] = []
        let relayID = await host.relayID
        for i in 1..<peers {
            var c = SessionClient.Configuration(host: "127.0.0.1", port: host.port, name: "\(name) \(i)")
            c.log = .silent
            c.relay = relay.map { RelayRoute(endpoint: $0.endpoints[i], sessionID: relayID) }
            do {
                clients.append(try await SessionClient.connect(c, onEvent: { onEvent(i, $0) }))
            } catch {
                throw CLIFailure(message: error.description)
            }
        }
        try await waitFor("members accepted") { await host.lobby().connectedDrawers == peers }
        host.start()
        for c in clients { try await waitFor("start") { await c.state().phase == .started } }
        return DrawingGroup(host: host, clients: clients)
    }

    /// Everyone draws until `end`; the strokes drawn in all.
    func draw(until end: ContinuousClock.Instant, samplesPerFrame: Int, seed: Int = 0,
              recorder: LatencyRecorder?) async throws -> Int {
        let pens = self.pens
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for (i, pen) in pens.enumerated() {
                group.addTask {
                    try await Self.draw(pen, device: seed * 4 + i, until: end, samplesPerFrame: samplesPerFrame,
                                        recorder: recorder)
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// One device drawing: a new stroke every two seconds, a frame's samples
    /// (rate / 60) every 1/60 s. Returns the strokes drawn.
    static func draw(_ pen: any BenchPen, device: Int, until end: ContinuousClock.Instant,
                     samplesPerFrame: Int, recorder: LatencyRecorder?) async throws -> Int {
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
                    recorder?.sent(builder.id, from: first, count: segments.count)
                    pen.addSegments(segments, to: builder.id)
                }
                next += frame
                try await Task.sleep(until: next, tolerance: .microseconds(100), clock: clock)
                if clock.now >= end { break }
            }
            let first = builder.segments.count
            let tail = builder.finish(at: Date()).tail
            if !tail.isEmpty {
                recorder?.sent(builder.id, from: first, count: tail.count)
                pen.addSegments(tail, to: builder.id)
            }
            pen.endStroke(builder.id)
            strokes += 1
        }
        return strokes
    }

    static func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw CLIFailure(message: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
