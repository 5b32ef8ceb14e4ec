import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// Ops the host will not take, over real sockets: the member who sent one is
/// told why and stays connected, and everyone draws on.
@Suite(.serialized) struct HostileOpsLoopbackTests {
    func refusals(_ log: EventLog) -> [OpRefusalReason] {
        log.all.compactMap { if case .opRefused(let r, _) = $0 { r } else { nil } }
    }

    @Test func inkOffThePageIsRefusedAndOnlyThatMemberIsTold() async throws {
        let hostEvents = EventLog()
        let host = try await Loopback.host(events: hostEvents)
        let events = EventLog()
        let bad = try await Loopback.join(host, "Far", events: events)
        let good = try await Loopback.join(host, "Good")
        for c in [bad, good] { try await eventually("accepted") { await c.state().phase == .accepted } }
        host.start()
        for c in [bad, good] { try await eventually("started") { await c.state().phase == .started } }

        let id = UUID()
        bad.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: Point(5_000_000, 0))
        bad.addSegments([CubicSegment(c1: Point(1, 1), c2: Point(2, 2), end: Point(3, 3))], to: id)
        bad.endStroke(id)
        try await eventually("the member is told") { refusals(events) == [.outsideLimits] }
        #expect(hostEvents.contains(.opRefused(.outsideLimits, member: 1)))
        // Nobody was cut off; both still draw.
        _ = try await Loopback.draw(bad, strokes: 1, seed: 1, pause: .zero)
        _ = try await Loopback.draw(good, strokes: 1, seed: 2, pause: .zero)
        let doc = try await Loopback.converge([host, bad, good], strokes: 2)
        #expect(!doc.strokes.contains { $0.id == id })
        #expect(await bad.state().unconfirmedOpCount == 0)
        #expect(!events.contains { if case .connectionLost = $0 { true } else { false } })
        try SketchValidation.check(doc)
        await host.end()
    }

    @Test func aFullSketchSaysSoToTheMemberAndTheHost() async throws {
        let hostEvents = EventLog()
        let host = try await Loopback.host(events: hostEvents,
                                           capacity: SketchCapacity(maxOps: 2, maxSegments: 1_000_000, maxOpenStrokesPerSender: 4))
        let events = EventLog()
        let member = try await Loopback.join(host, "P1", events: events)
        try await eventually("accepted") { await member.state().phase == .accepted }
        host.start()
        try await eventually("started") { await member.state().phase == .started }
        _ = try await Loopback.draw(member, strokes: 2, seed: 1, pause: .zero)
        _ = try await Loopback.converge([host, member], strokes: 2)
        _ = try await Loopback.draw(member, strokes: 1, seed: 2, pause: .zero)
        try await eventually("the member is told") { refusals(events) == [.sketchFull] }
        // The host's own event comes from its loop after the refusal went
        // out: the member may read the frame before the host's loop gets to
        // it, so it has a wait of its own.
        try await eventually("the host is told") { hostEvents.contains(.opRefused(.sketchFull, member: 1)) }
        try await eventually("nothing waits for an echo") { await member.state().unconfirmedOpCount == 0 }
        await host.end()
        try await eventually("ended") { await member.state().phase == .ended(.hostEnded) }
        #expect(await member.document() == (await host.document()))
        #expect(await host.document().ops.count == 2)
    }

    @Test func strokesLeftOpenPastTheCapAreRefused() async throws {
        let host = try await Loopback.host()
        let events = EventLog()
        let member = try await Loopback.join(host, "P1", events: events)
        try await eventually("accepted") { await member.state().phase == .accepted }
        host.start()
        try await eventually("started") { await member.state().phase == .started }
        for i in 0..<6 {
            member.beginStroke(id: UUID(), color: PenColor.red.rgba, width: 4, start: Point(Double(i), 1))
        }
        try await eventually("two refused") { refusals(events).count == 2 }
        #expect(refusals(events) == [.tooManyOpenStrokes, .tooManyOpenStrokes])
        #expect(await host.state().live.count == SketchCapacity.sketchFile.maxOpenStrokesPerSender)
        await host.end()
    }
}
