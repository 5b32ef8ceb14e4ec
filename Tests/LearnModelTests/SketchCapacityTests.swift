import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// A sketch made together must stay one the app can save, export and open
/// again: the host refuses ops past the file limits and tells whoever drew.
@Suite struct SketchCapacityTests {
    func refusals(_ events: [SessionEvent]) -> [OpRefusalReason] {
        events.compactMap { if case .opRefused(let r, _) = $0 { r } else { nil } }
    }

    @Test func theDefaultsAreTheFileLimits() {
        #expect(SketchCapacity.sketchFile.maxOps == SketchLimits.maxOps)
        #expect(SketchCapacity.sketchFile.maxSegments == SketchLimits.maxSegments)
        #expect(SessionLimits.maxSegmentsPerStroke <= SketchLimits.maxSegmentsPerStroke)
        #expect(HostSession(hostName: "T", params: SessionParams(name: "S")).capacity == .sketchFile)
    }

    @Test func aFullSketchRefusesTheNextStrokeAndTellsTheMemberAndTheHost() throws {
        var sim = SessionSimulation.started(2, capacity: SketchCapacity(maxOps: 3, maxSegments: 1_000_000, maxOpenStrokesPerSender: 4))
        for i in 0..<3 { sim.draw(1, seed: UInt64(i), points: 20) }
        #expect(sim.host.document.ops.count == 3)
        let refused = sim.draw(1, seed: 9, points: 20)
        #expect(sim.host.document.ops.count == 3)
        #expect(!sim.host.document.strokes.contains { $0.id == refused })
        #expect(refusals(sim.events(1)) == [.sketchFull])
        #expect(sim.hostEvents.contains(.opRefused(.sketchFull, member: 1)))
        // The member forgot the refused stroke: nothing waits for an echo,
        // and its segments and end were never sent.
        #expect(sim.peers[1]?.unconfirmedOpCount == 0)
        #expect(sim.open.contains(1))
        // The host's own pen and anyone's eraser are refused alike.
        sim.draw(nil, seed: 10, points: 20)
        #expect(sim.hostEvents.contains(.opRefused(.sketchFull, member: 0)))
        let someStroke = sim.host.document.strokes[0].id
        sim.peerDo(2) { $0.erase(someStroke) }
        sim.run()
        #expect(refusals(sim.events(2)) == [.sketchFull])
        #expect(sim.host.document.strokes.count == 3)
        sim.hostDo(.end(.hostEnded))
        sim.run()
        for c in [1, 2] as [ConnectionID] { #expect(sim.peers[c]?.document == sim.host.document) }
        try SketchValidation.check(sim.host.document)
    }

    @Test func strokesInProgressCountSoTheEndNeverOverfillsTheSketch() throws {
        var sim = SessionSimulation.started(1, capacity: SketchCapacity(maxOps: 3, maxSegments: 1_000_000, maxOpenStrokesPerSender: 4))
        sim.draw(1, seed: 1, points: 20)
        sim.draw(1, seed: 2, points: 20)
        sim.draw(nil, seed: 3, points: 20, finish: false)
        sim.draw(1, seed: 4, points: 20, finish: false)
        #expect(refusals(sim.events(1)) == [.sketchFull])
        sim.hostDo(.end(.hostEnded))
        sim.run()
        #expect(sim.host.document.ops.count == 3)
        #expect(sim.peers[1]?.document == sim.host.document)
    }

    /// A classroom machine whose clock battery died thinks it is 1970: its
    /// strokes are still drawn and kept, at the nearest date a file holds,
    /// and every copy agrees.
    @Test func aHostOrMemberWithAWrongClockStillDraws() throws {
        var sim = SessionSimulation.started(1)
        sim.clock = Date(timeIntervalSince1970: 0)
        sim.draw(nil, seed: 1, points: 20)
        let stroke = try #require(sim.host.document.strokes.first)
        #expect(SketchLimits.dates.contains(stroke.startedAt) && SketchLimits.dates.contains(stroke.endedAt))
        let id = UUID()
        let broken = Date(timeIntervalSince1970: 9e9)
        sim.peerDo(1) { $0.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: Point(5, 5), at: broken) }
        sim.peerDo(1) { $0.addSegments([CubicSegment.line(from: Point(5, 5), to: Point(40, 40))], to: id) + $0.endStroke(id, at: broken) }
        sim.run()
        #expect(refusals(sim.events(1)).isEmpty)
        #expect(sim.hostEvents.allSatisfy { if case .opRefused = $0 { false } else { true } })
        #expect(sim.host.document.strokes.count == 2)
        sim.hostDo(.erase(id: stroke.id))
        sim.run()
        #expect(sim.host.document.strokes.count == 1)
        #expect(sim.peers[1]?.document == sim.host.document)
    }

    @Test func aMemberMayKeepOnlyAFewStrokesOpenAtOnce() {
        var sim = SessionSimulation.started(1)
        for i in 0..<6 { sim.draw(1, seed: UInt64(i), points: 20, finish: false) }
        let open = sim.host.live.filter { $0.sender == 1 }.count
        #expect(open == SketchCapacity.sketchFile.maxOpenStrokesPerSender)
        #expect(refusals(sim.events(1)) == [.tooManyOpenStrokes, .tooManyOpenStrokes])
        #expect(sim.hostEvents.contains(.opRefused(.tooManyOpenStrokes, member: 1)))
        #expect(sim.open.contains(1))
    }

    @Test func strokePiecesPastTheSketchsLimitAreRefused() throws {
        var sim = SessionSimulation.started(1, capacity: SketchCapacity(maxOps: 100, maxSegments: 30, maxOpenStrokesPerSender: 4))
        sim.draw(1, seed: 1, points: 200)
        #expect(refusals(sim.events(1)).contains(.sketchFull))
        #expect(sim.host.board.segmentCount <= 30)
        #expect(sim.host.document.strokes.reduce(0) { $0 + $1.segments.count } <= 30)
        #expect(sim.peers[1]?.document == sim.host.document)
    }

    @Test func aSketchWhoseFileWouldBeTooBigToOpenIsFull() throws {
        // The op and piece counts allow files far over the 64 MB a sketch
        // file may have; the host counts the file's bytes too.
        var sim = SessionSimulation.started(1, capacity: SketchCapacity(maxOps: 1_000, maxSegments: 1_000_000, maxOpenStrokesPerSender: 4,
                                                      maxFileBytes: 6_000))
        for i in 0..<20 { sim.draw(1, seed: UInt64(i), points: 20) }
        #expect(refusals(sim.events(1)).contains(.sketchFull))
        #expect(sim.host.board.fileBytes <= 6_000)
        let file = try SketchFileFormat.encode(sim.host.document)
        #expect(file.count <= sim.host.board.fileBytes + SketchCapacity.metaBytes)
        #expect(try SketchFileFormat.decode(file) == sim.host.document)
        #expect(sim.peers[1]?.document == sim.host.document)
    }

    @Test(arguments: [
        ("far off the page", 6.0, 2_000_000.0),
        ("no width", 0.0, 0.0),
        ("an impossible pen", 5_000.0, 0.0),
    ])
    func aStrokeOutsideTheFileLimitsIsRefusedAndOnlyThat(_ what: String, _ width: Double, _ offset: Double) throws {
        var sim = SessionSimulation.started(2)
        sim.draw(1, seed: 1, points: 20, width: width, offset: offset)
        #expect(refusals(sim.events(1)) == [.outsideLimits], "\(what)")
        #expect(sim.hostEvents.contains(.opRefused(.outsideLimits, member: 1)))
        #expect(sim.host.document.ops.isEmpty)
        // Nobody was cut off, and the others draw on.
        #expect(sim.open == [1, 2])
        sim.draw(2, seed: 2, points: 20)
        sim.draw(1, seed: 3, points: 20)
        #expect(sim.host.document.strokes.count == 2)
        for c in [1, 2] as [ConnectionID] { #expect(sim.peers[c]?.document == sim.host.document) }
        try SketchValidation.check(sim.host.document)
    }

    @Test func piecesRunningOffThePageAreRefused() throws {
        var sim = SessionSimulation.started(1)
        let id = sim.draw(1, seed: 1, points: 20, finish: false)
        let far = CubicSegment(c1: Point(0, 0), c2: Point(0, 0), end: Point(3_000_000, 0))
        sim.peerDo(1) { $0.addSegments([far], to: id) }
        sim.run()
        #expect(refusals(sim.events(1)) == [.outsideLimits])
        sim.peerDo(1) { $0.endStroke(id) }
        sim.run()
        try SketchValidation.check(sim.host.document)
        #expect(sim.open.contains(1))
    }
}
