import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// A late joiner of a sketch bigger than a connection's byte cap: the
/// snapshot goes out piece by piece as the socket drains, so the joiner is
/// never "too slow" and the host holds about one piece for it at a time.
@Suite(.serialized) struct SnapshotStreamingLoopbackTests {
    /// Megabytes of strokes keep these tests' loops busy for seconds: loops
    /// of their own, so that tests running beside them are not kept waiting.
    static let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    /// One long stroke of random pieces all over the sheet (~18 bytes each
    /// on the wire), drawn by the host's own pen.
    private func drawLongStroke(_ host: SessionHost, seed: UInt64, segments: Int) {
        var rng = SplitMix64(seed: seed)
        func point() -> Point { Point(Double(rng.nextInt(below: 1600)), Double(rng.nextInt(below: 1000))) }
        let id = UUID()
        host.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: point())
        host.addSegments((0..<segments).map { _ in CubicSegment(c1: point(), c2: point(), end: point()) }, to: id)
        host.endStroke(id)
    }

    /// Host + one member, and a sketch of 40 strokes of 16,000 pieces: about
    /// 11 MiB of snapshot, well over the 8 MiB a connection may have
    /// waiting. One stroke at a time, so the member drawing along is never
    /// behind by much. The host's kernel send buffer is small, as over
    /// Wi-Fi: loopback's would otherwise soak up megabytes and hide what
    /// the host queues itself.
    private func bigSketch(strokes: Int = 40) async throws -> (SessionHost, SessionClient) {
        var options = TransportOptions()
        options.socketSendBuffer = 64 << 10
        let (host, clients) = try await Loopback.startedSession(1, options: options, group: Self.loops)
        for i in 0..<strokes {
            drawLongStroke(host, seed: UInt64(i), segments: 16_000)
            try await eventually("stroke \(i) reached the member") { await clients[0].document().strokes.count == i + 1 }
        }
        let size = SessionMessage.snapshotOps(await host.document().ops).frame().count
        #expect(size > TransportOptions().maxQueuedBytes)
        return (host, clients[0])
    }

    @Test func aLateJoinerOfASketchOverTheByteCapGetsExactlyTheHostsOps() async throws {
        let strokes = 40
        let (host, member) = try await bigSketch(strokes: strokes)

        // A late joiner with a small receive buffer; host and member keep
        // drawing while its snapshot streams.
        var slow = TransportOptions()
        slow.socketReceiveBuffer = 16 << 10
        let lateEvents = EventLog()
        let late = try await Loopback.join(host, "Late", options: slow, events: lateEvents, group: Self.loops)
        try await withThrowingTaskGroup(of: Void.self) { g in
            g.addTask { _ = try await Loopback.draw(host, strokes: 3, seed: 100, pause: .milliseconds(2)) }
            g.addTask { _ = try await Loopback.draw(member, strokes: 3, seed: 200, pause: .milliseconds(2)) }
            try await g.waitForAll()
        }
        let doc = try await Loopback.converge([host, member, late], strokes: strokes + 6)
        #expect(await late.document().ops == doc.ops)
        // Caught up in one go: never dropped, nothing seen twice, no hole.
        let state = await late.state()
        #expect(state.duplicateCount == 0)
        #expect(state.gapCount == 0)
        #expect(state.rejectedCount == 0)
        #expect(!lateEvents.contains { if case .connectionLost = $0 { true } else { false } })
        #expect(lateEvents.all.filter { if case .documentReset = $0 { true } else { false } }.count == 1)
        let stats = await host.statistics()
        #expect(stats.slowDrops == 0)
        // What waited for the joiner stayed around one piece (≤ 1 MiB) above
        // the low-water mark, not the whole sketch.
        #expect(stats.peakQueuedBytes < 2 << 20)
        await host.end()
    }

    @Test func aSlowButAliveJoinerIsNotDroppedAndCostsTheHostOnePiece() async throws {
        let (host, _) = try await bigSketch()
        // A joiner that reads only when the test lets it, a little at a time.
        let slow = try await RawPeer.connect(port: host.port, autoRead: false, receiveBuffer: 16 << 10, group: Self.loops)
        let counter = ByteCounter()
        try await slow.channel.pipeline.addHandler(counter).get()
        try await slow.send(.hello(Hello(peerID: UUID(), name: "Slow", role: .observer)))
        var peak = 0
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(90)
        while true {
            let state = await host.state()
            let stats = await host.statistics()
            peak = max(peak, stats.queuedBytes)
            if state.snapshotCursors.isEmpty && state.acceptedMemberConnections.count == 2 && stats.queuedBytes == 0 { break }
            try #require(clock.now < deadline, "the snapshot never finished")
            slow.channel.read()
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(slow.isOpen)
        #expect(counter.bytes > TransportOptions().maxQueuedBytes)
        #expect(await host.statistics().slowDrops == 0)
        #expect(peak < 2 << 20)
        await slow.close()
        await host.end()
    }
}

/// Counts what a raw peer receives.
final class ByteCounter: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private let lock = NSLock()
    private var count = 0

    var bytes: Int { lock.withLock { count } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let n = unwrapInboundIn(data).readableBytes
        lock.withLock { count += n }
    }
}

/// What a raw peer receives, decoded.
final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [SessionMessage] = []
    var all: [SessionMessage] { lock.withLock { messages } }
    func add(_ m: SessionMessage) { lock.withLock { messages.append(m) } }
}

/// Ending while a member is still catching up, over loopback TCP.
@Suite(.serialized) struct EndWhileCatchingUpLoopbackTests {
    /// The host used to cut every connection two seconds after its `end`,
    /// read or not: a member whose machine was busy (or who was still
    /// reading a long catch-up) lost the `end` and took the session for
    /// a host that vanished. Now only a member that reads nothing at all
    /// for that long is cut off.
    @Test func aMemberReadingSlowlyStillGetsEverythingAndTheEnd() async throws {
        var options = TransportOptions()
        options.socketSendBuffer = 16 << 10
        let (host, _) = try await Loopback.startedSession(1, options: options, group: SnapshotStreamingLoopbackTests.loops)
        let slow = try await RawPeer.connect(port: host.port, autoRead: false, receiveBuffer: 16 << 10,
                                             group: SnapshotStreamingLoopbackTests.loops)
        let log = MessageLog()
        try await slow.channel.eventLoop.submit {
            try slow.channel.pipeline.syncOperations.addHandler(FrameHandler(
                onMessage: log.add, onFrameError: { _ in }, onBytes: { _ in },
                onInactive: {}))
        }.get()
        try await slow.send(.hello(Hello(peerID: UUID(), name: "Slow", role: .observer)))
        try await eventually("the observer is in") {
            slow.channel.read()
            return await host.state().acceptedMemberConnections.count == 2
        }
        // About 900 kB the slow member has yet to read when the host ends.
        for seed in 0..<3 {
            var rng = SplitMix64(seed: UInt64(seed))
            func point() -> Point { Point(Double(rng.nextInt(below: 1600)), Double(rng.nextInt(below: 1000))) }
            let id = UUID()
            host.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: point())
            host.addSegments((0..<16_000).map { _ in CubicSegment(c1: point(), c2: point(), end: point()) }, to: id)
            host.endStroke(id)
        }
        try await eventually("the strokes wait for the slow member") { await host.statistics().queuedBytes > 500_000 }
        async let ended: Void = host.end()
        // A read every 150 ms, on the peer's loop (a busy test process may
        // not run this task for seconds): the rest takes seconds to come.
        let clock = ContinuousClock()
        let started = clock.now
        let reads = slow.channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(150)) { _ in
            slow.channel.read()
        }
        try await eventually(timeout: .seconds(120), "the host closed the connection") { !slow.isOpen }
        reads.cancel()
        await ended
        #expect(clock.now - started > .seconds(2))
        guard case .end(let end)? = log.all.last else {
            Issue.record("the last frame was not the end: \(String(describing: log.all.last))")
            return
        }
        #expect(end.reason == .hostEnded)
        #expect(log.all.filter { if case .strokeEnd = $0 { true } else { false } }.count >= 3)
    }
}
