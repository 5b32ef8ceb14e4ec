import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnSession

/// The session rules on the pure state machines (no sockets).
@Suite struct SessionRulesTests {
    func drawer(_ name: String) -> PeerSession { PeerSession(name: name, role: .drawer) }

    func expectSameDocuments(_ sim: SessionSimulation, _ ids: [ConnectionID]) {
        for c in ids { #expect(sim.peers[c]?.document == sim.host.document, "member on \(c)") }
    }

    /// Every frame a joiner the host has not let in gets, as bytes: none
    /// holds the sketch's id, which the school server takes as part of what
    /// shows a laptop drew in the sketch. Those let in get it, and the
    /// school account each named in its hello is the host's to name.
    @Test func theSketchsIdReachesOnlyThoseLetIn() {
        final class Heard: @unchecked Sendable { var frames: [ConnectionID: [UInt8]] = [:] }
        let heard = Heard()
        var sim = SessionSimulation()
        sim.lose = { c, m in heard.frames[c, default: []] += m.frame(); return false }
        let annasAccount = UUID()
        sim.connect(1, PeerSession(name: "Anna", role: .drawer, accountID: annasAccount))
        sim.connect(2, PeerSession(name: "Eve", role: .drawer, accountID: UUID()))
        sim.hostDo(.accept(1))
        sim.hostDo(.start)
        sim.run()
        let id = withUnsafeBytes(of: sim.host.sketch.id.uuid) { [UInt8]($0) }
        func holds(_ bytes: [UInt8]) -> Bool {
            bytes.count >= id.count && (0...(bytes.count - id.count)).contains { Array(bytes[$0..<$0 + id.count]) == id }
        }
        #expect(holds(heard.frames[1] ?? []))
        #expect(!(heard.frames[2] ?? []).isEmpty)
        #expect(!holds(heard.frames[2] ?? []))
        #expect(sim.peers[1]?.document.meta.id == sim.host.sketch.id)
        #expect(sim.host.memberAccounts == [annasAccount])
    }

    @Test func joinerSeesParametersAndWaitsUntilAccepted() {
        // Hosted by a laptop signed in to a school: the members are told
        // its creator and nonce with the id, all through the wire format.
        var sim = SessionSimulation(params: SessionParams(name: "Zoo", guides: .squared, timeLimitMinutes: 20),
                                    sketch: .hosted(creator: UUID()))
        sim.connect(1, drawer("Anna"))
        let lobby = sim.peers[1]?.lobby
        #expect(lobby?.params.name == "Zoo")
        #expect(lobby?.params.guides == .squared)
        #expect(lobby?.params.timeLimitMinutes == 20)
        #expect(lobby?.member(1)?.state == .pending)
        #expect(sim.peers[1]?.phase == .joining)
        // The sketch's id is told only to those let in: a joiner still
        // waiting has neither it nor the session's (which everyone hears).
        #expect(sim.peers[1]?.document.meta.id != sim.host.sketch.id)
        #expect(sim.peers[1]?.document.meta.id != sim.host.sessionID)
        #expect(sim.host.sketch.id != sim.host.sessionID)
        sim.hostDo(.accept(1))
        sim.run()
        #expect(sim.peers[1]?.document.meta.id == sim.host.sketch.id)
        #expect(sim.peers[1]?.sketch == sim.host.sketch)
        #expect(sim.peers[1]?.phase == .accepted)
        #expect(sim.peers[1]?.index == 1)
        #expect(sim.peers[1]?.lobby?.member(1)?.state == .accepted)
    }

    @Test func atMostFourDrawersHostIncluded() {
        var sim = SessionSimulation()
        for i in 1...5 { sim.connect(ConnectionID(i), drawer("P\(i)")) }
        for i in 1...5 { sim.hostDo(.accept(MemberIndex(i))); sim.run() }
        #expect(sim.host.lobby.connectedDrawers == 4)
        #expect(sim.peers[5]?.phase == .joining)
        #expect(sim.hostEvents.contains(.refused("at most 4 can draw")))
        // Observers do not count.
        sim.connect(6, PeerSession(name: "Projector", role: .observer))
        sim.hostDo(.accept(6))
        sim.run()
        #expect(sim.peers[6]?.phase == .accepted)
    }

    @Test func acceptAllDeclinesTheFifthDrawer() {
        var sim = SessionSimulation(acceptAll: true)
        for i in 1...4 { sim.connect(ConnectionID(i), drawer("P\(i)")) }
        #expect(sim.peers[3]?.phase == .accepted)
        #expect(sim.peers[4]?.phase == .declined(.full))
        #expect(!sim.open.contains(4))
    }

    @Test func declineWorksBeforeTheStartAndForWaitingJoiners() {
        var sim = SessionSimulation()
        sim.connect(1, drawer("Anna"))
        sim.connect(2, drawer("Ben"))
        sim.hostDo(.decline(1))
        sim.run()
        #expect(sim.peers[1]?.phase == .declined(.byHost))
        #expect(sim.events(1).contains(.declined(.byHost)))
        #expect(!sim.open.contains(1))
        #expect(sim.host.lobby.member(1) == nil)
        // Accepted, then declined before the start.
        sim.hostDo(.accept(2))
        sim.run()
        sim.hostDo(.decline(2))
        sim.run()
        #expect(sim.peers[2]?.phase == .declined(.byHost))
        // After the start an accepted drawer stays.
        var s = SessionSimulation.started(1)
        s.hostDo(.decline(1))
        s.run()
        #expect(s.peers[1]?.phase == .started)
    }

    @Test func startNeedsTwoDrawers() {
        var sim = SessionSimulation()
        sim.hostDo(.start)
        #expect(!sim.host.isStarted)
        sim.connect(1, PeerSession(name: "Projector", role: .observer))
        sim.hostDo(.accept(1))
        sim.hostDo(.start)
        #expect(!sim.host.isStarted)
        sim.connect(2, drawer("Anna"))
        sim.hostDo(.accept(2))
        sim.hostDo(.start)
        sim.run()
        #expect(sim.host.isStarted)
        #expect(sim.peers[1]?.phase == .started)
        #expect(sim.peers[2]?.phase == .started)
    }

    @Test func fourDrawersEndWithTheSameDocument() {
        var sim = SessionSimulation.started(3)
        for round in 0..<5 {
            for c: ConnectionID? in [nil, 1, 2, 3] {
                sim.draw(c, seed: UInt64(round * 10) + (c ?? 0))
            }
        }
        #expect(sim.host.document.strokes.count == 20)
        expectSameDocuments(sim, [1, 2, 3])
        let authors = Set(sim.host.document.strokes.map(\.author))
        #expect(authors == ["Teacher", "P1", "P2", "P3"])
        sim.hostDo(.end(.hostEnded))
        sim.run()
        for c: ConnectionID in [1, 2, 3] { #expect(sim.peers[c]?.phase == .ended(.hostEnded)) }
    }

    @Test func interleavedStrokesKeepEachAuthorsOrder() {
        var sim = SessionSimulation.started(2)
        // Two members draw at once: begin both, then alternate batches.
        let a = sim.draw(1, seed: 1, finish: false)
        let b = sim.draw(2, seed: 2, finish: false)
        sim.peerDo(2) { $0.endStroke(b) }
        sim.peerDo(1) { $0.endStroke(a) }
        sim.run()
        expectSameDocuments(sim, [1, 2])
        #expect(sim.host.document.strokes.map(\.id) == [b, a])
    }

    @Test func theHostStampsSenderAndAuthorWhateverTheMessageSays() {
        var sim = SessionSimulation.started(2)
        // Member 1 pretends to be the host, with the host's name.
        let forged = StrokeBegin(stamp: OpStamp(sender: 0, seq: 1), strokeID: UUID(), author: "Teacher",
                                 color: RGBA8(PenColor.black.rgba), width: WireLength(6), start: WirePoint(x: 0, y: 0),
                                 time: WireTime(milliseconds: 0))
        sim.hostDo(.received(1, .strokeBegin(forged)))
        sim.run()
        let live = sim.peers[2]?.live.first
        #expect(live?.sender == 1)
        #expect(live?.author == "P1")
        #expect(live?.begin.time != WireTime(milliseconds: 0))
        // …and cannot extend a stroke of someone else.
        let hostStroke = sim.draw(nil, seed: 5, finish: false)
        let base = sim.host.live.first { $0.id == hostStroke }!.wireEnd
        sim.hostDo(.received(2, .strokeSegments(StrokeSegments(stamp: OpStamp(sender: 0, seq: 1), strokeID: hostStroke, base: base,
                                                                segments: [WireSegment(c1: base, c2: base, end: WirePoint(x: 9, y: 9))]))))
        sim.run()
        #expect(sim.host.live.first { $0.id == hostStroke }?.wireEnd == base)
    }

    @Test func clientsCannotClearAndHostOnlyWhenAllowed() {
        var sim = SessionSimulation.started(1)
        sim.draw(1, seed: 1)
        sim.hostDo(.received(1, .clear(Clear(stamp: OpStamp(sender: 1, seq: 3), author: "P1", time: WireTime(milliseconds: 0)))))
        sim.hostDo(.clear)
        sim.run()
        #expect(sim.host.document.strokes.count == 1)
        #expect(sim.hostEvents.contains(.refused("clearing is off in the settings")))
        var allowed = SessionSimulation.started(1, settings: SessionSettings(clearAllowed: true))
        allowed.draw(1, seed: 1)
        allowed.hostDo(.clear)
        allowed.run()
        #expect(allowed.host.document.strokes.isEmpty)
        expectSameDocuments(allowed, [1])
    }

    @Test func observersSeeEverythingAndTheirOpsAreIgnored() {
        var sim = SessionSimulation.started(1)
        sim.connect(9, PeerSession(name: "Projector", role: .observer))
        sim.hostDo(.accept(2))
        sim.run()
        sim.draw(1, seed: 1)
        // The observer's own API refuses; forged messages are dropped by the host.
        var refused: [PeerSession.Effect] = []
        sim.peerDo(9) { p in refused = p.beginStroke(id: UUID(), color: .white, width: 1, start: Point(1, 1)); return refused }
        #expect(refused == [.event(.refused("observers do not draw"))])
        let begin = StrokeBegin(stamp: OpStamp(sender: 2, seq: 1), strokeID: UUID(), author: "x", color: RGBA8(.white),
                                width: WireLength(1), start: WirePoint(x: 0, y: 0), time: WireTime(milliseconds: 0))
        sim.hostDo(.received(9, .strokeBegin(begin)))
        sim.hostDo(.received(9, .erase(Erase(stamp: OpStamp(sender: 2, seq: 2), strokeID: sim.host.document.strokes[0].id,
                                             author: "x", time: WireTime(milliseconds: 0)))))
        sim.run()
        #expect(sim.host.live.isEmpty)
        #expect(sim.host.document.strokes.count == 1)
        sim.draw(nil, seed: 2)
        expectSameDocuments(sim, [1, 9])
    }

    @Test func duplicatesAreDroppedAndGapsCloseTheConnection() {
        var sim = SessionSimulation.started(1)
        let id = UUID()
        sim.peerDo(1) { $0.beginStroke(id: id, color: .white, width: 6, start: Point(10, 10)) }
        sim.run()
        let begin = sim.peers[1]!.live[0].begin
        // The same op again: nothing happens.
        sim.hostDo(.received(1, .strokeBegin(begin)))
        #expect(sim.host.live.count == 1)
        // A peer receiving a duplicate counts and drops it.
        sim.peerDo(1) { $0.receive(.strokeBegin(begin)) }
        #expect(sim.peers[1]?.duplicateCount == 1)
        // Seq 5 after 1: out of step, closed.
        sim.hostDo(.received(1, .strokeEnd(StrokeEnd(stamp: OpStamp(sender: 1, seq: 5), strokeID: id, time: WireTime(milliseconds: 0)))))
        sim.run()
        #expect(!sim.open.contains(1))
        #expect(sim.host.live.count == 1)
    }

    @Test func opsBeforeTheStartAreRefused() {
        var sim = SessionSimulation()
        sim.connect(1, drawer("Anna"))
        sim.hostDo(.accept(1))
        sim.run()
        var fx: [PeerSession.Effect] = []
        sim.peerDo(1) { p in fx = p.beginStroke(id: UUID(), color: .white, width: 1, start: Point(1, 1)); return fx }
        #expect(fx == [.event(.refused("the session has not started"))])
        sim.hostDo(.beginStroke(id: UUID(), color: .white, width: 1, start: Point(0, 0)))
        #expect(sim.host.live.isEmpty)
    }

    @Test func rejoinMidStrokeRestoresTheMemberAndResendsWhatWasLost() {
        var sim = SessionSimulation.started(2)
        sim.draw(1, seed: 1)
        // Member 1 is mid-stroke when its connection breaks.
        var rng = SplitMix64(seed: 9)
        let path = randomPath(&rng, count: 60)
        var b = StrokeBuilder(author: "x", color: PenColor.darkBlue.rgba, width: 18, start: path[0], at: Date())
        let id = b.id
        sim.peerDo(1) { $0.beginStroke(id: id, color: b.color, width: b.width, start: b.start) }
        sim.peerDo(1) { $0.addSegments(b.add(contentsOf: path[1..<20]), to: id) }
        sim.run()
        // These two batches are sent but lost with the connection.
        sim.peerDo(1) { $0.addSegments(b.add(contentsOf: path[20..<30]), to: id) }
        sim.peerDo(1) { $0.addSegments(b.add(contentsOf: path[30..<40]), to: id) }
        sim.drop(1)
        #expect(sim.events(1).last == .connectionLost(reason: "dropped"))
        // Others keep drawing meanwhile; member 1 draws on, offline.
        sim.draw(2, seed: 2)
        sim.peerDo(1) { $0.addSegments(b.add(contentsOf: path[40...]), to: id) }
        #expect(sim.host.lobby.member(1)?.connected == false)
        let acceptedBefore = sim.hostEvents.count
        sim.reconnect(1, as: 11)
        // No host decision was needed.
        #expect(!sim.hostEvents[acceptedBefore...].contains { if case .refused = $0 { true } else { false } })
        #expect(sim.host.lobby.member(1)?.connected == true)
        #expect(sim.peers[11]?.index == 1)
        let tail = b.finish(at: Date()).tail
        sim.peerDo(11) { $0.addSegments(tail, to: id) + $0.endStroke(id) }
        sim.run()
        let stroke = sim.host.document.strokes.first { $0.id == id }
        #expect(stroke?.segments.count == b.segments.count)
        #expect(stroke?.segments == b.segments.map { WireSegment($0).cubic })
        #expect(sim.peers[11]?.unconfirmedOpCount == 0)
        expectSameDocuments(sim, [11, 2])
    }

    @Test func aBadTokenIsANewJoiner() {
        var sim = SessionSimulation.started(1)
        sim.connect(5, PeerSession(name: "Mallory", role: .drawer, resumeToken: ResumeToken(high: 1, low: 2)))
        #expect(sim.peers[5]?.phase == .joining)
        #expect(sim.host.lobby.member(2)?.state == .pending)
    }

    @Test func lateJoinerGetsTheWholeSketchAndStrokesInProgress() {
        var sim = SessionSimulation.started(1)
        for i in 0..<6 { sim.draw(i % 2 == 0 ? 1 : nil, seed: UInt64(i)) }
        let erased = sim.host.document.strokes[2].id
        sim.peerDo(1) { $0.erase(erased) }
        sim.run()
        let open = sim.draw(nil, seed: 77, finish: false)
        sim.connect(2, drawer("Late"))
        sim.hostDo(.accept(2))
        sim.run()
        #expect(sim.peers[2]?.phase == .started)
        #expect(sim.peers[2]?.document == sim.host.document)
        #expect(sim.peers[2]?.live.map(\.id) == [open])
        #expect(sim.events(2).contains { if case .documentReset = $0 { true } else { false } })
        sim.hostDo(.endStroke(id: open))
        sim.draw(2, seed: 100)
        sim.run()
        expectSameDocuments(sim, [1, 2])
        #expect(sim.host.document.strokes.count == 7)
    }

    @Test func bigSketchesArriveInChunksUnderTheFrameCap() {
        var sim = SessionSimulation.started(1)
        // Enough ink for several chunks.
        for i in 0..<60 { sim.draw(nil, seed: UInt64(i), points: 400) }
        var frames: [Int] = []
        let fx = sim.host.handle(.connectionOpened(50), now: Date())
        _ = fx
        _ = sim.host.handle(.received(50, .hello(Hello(peerID: UUID(), name: "Proj", role: .observer))), now: Date())
        let effects = sim.host.handle(.accept(2), now: Date())
        #expect(effects.contains { if case .send(.snapshotEnd, _) = $0 { true } else { false } })
        for case .send(let m, _) in effects { frames.append(m.frame().count) }
        #expect(frames.allSatisfy { $0 <= SessionLimits.maxFrameLength + 4 })
        sim.connect(2, PeerSession(name: "Late", role: .observer))
        sim.hostDo(.accept(3))
        sim.run()
        #expect(sim.peers[2]?.document == sim.host.document)
    }

    @Test func endCommitsStrokesInProgressAlikeEverywhere() {
        var sim = SessionSimulation.started(2)
        sim.draw(1, seed: 1, finish: false)
        sim.draw(nil, seed: 2, finish: false)
        sim.draw(2, seed: 3, finish: false)
        sim.hostDo(.end(.timeUp))
        sim.run()
        #expect(sim.host.document.strokes.count == 3)
        #expect(sim.host.document.strokes.map(\.author) == ["Teacher", "P1", "P2"])
        expectSameDocuments(sim, [1, 2])
        #expect(sim.peers[1]?.phase == .ended(.timeUp))
        // Ops after the end change nothing.
        sim.hostDo(.beginStroke(id: UUID(), color: .white, width: 1, start: Point(0, 0)))
        #expect(sim.host.live.isEmpty)
    }

    @Test func whenTheHostIsGoneMembersKeepTheirCopy() {
        var sim = SessionSimulation.started(2)
        sim.draw(1, seed: 1)
        sim.draw(2, seed: 2, finish: false)
        let before = sim.host.document.strokes.count
        sim.drop(1)
        sim.peerDo(1) { $0.hostUnreachable() }
        #expect(sim.peers[1]?.phase == .ended(.hostLeft))
        #expect(sim.peers[1]?.document.strokes.count == before + 1)
        #expect(sim.events(1).last == .ended(.hostLeft))
    }

    @Test func simultaneousErasesApplyOnce() {
        var sim = SessionSimulation.started(2)
        sim.draw(1, seed: 1)
        let id = sim.host.document.strokes[0].id
        sim.peerDo(1) { $0.erase(id) }
        sim.peerDo(2) { $0.erase(id) }
        sim.run()
        #expect(sim.host.document.ops.count == 2)
        expectSameDocuments(sim, [1, 2])
    }

    @Test func protocolMismatchIsDeclined() {
        var sim = SessionSimulation()
        sim.hostDo(.connectionOpened(1))
        let fx = sim.host.handle(.received(1, .hello(Hello(protocolVersion: 99, peerID: UUID(), name: "Future", role: .drawer))),
                                 now: Date())
        #expect(fx.contains(.send(.declined(.protocolMismatch(hostVersion: SessionProtocol.version)), to: [1])))
    }

    @Test func sameNamesAreToldApart() {
        var sim = SessionSimulation()
        sim.connect(1, drawer("Anna"))
        sim.connect(2, drawer("Anna"))
        sim.connect(3, drawer("Teacher"))
        #expect(sim.host.lobby.members.map(\.name) == ["Teacher", "Anna", "Anna 2", "Teacher 2"])
    }

    @Test func timeLimitSetsADeadlineAndLateJoinersGetTheTimeLeft() {
        var sim = SessionSimulation(params: SessionParams(name: "Zoo", timeLimitMinutes: 10))
        sim.connect(1, drawer("Anna"))
        sim.hostDo(.accept(1))
        sim.hostDo(.start)
        sim.run()
        #expect(sim.host.deadline != nil)
        #expect(sim.events(1).contains(.started(secondsLeft: 600)))
        sim.clock += 120
        sim.connect(2, PeerSession(name: "Proj", role: .observer))
        sim.hostDo(.accept(2))
        sim.run()
        #expect(sim.events(2).contains { if case .started(let s) = $0 { (s ?? 0) <= 481 && (s ?? 0) >= 479 } else { false } })
    }

    @Test func outboundQueueMergesABackedUpStroke() {
        var q = OutboundQueue()
        let id = UUID()
        var base = WirePoint(x: 0, y: 0)
        var total = 0
        for seq in UInt64(1)...50 {
            let end = WirePoint(x: Int32(seq) * 64, y: 0)
            let batch = StrokeSegments(stamp: OpStamp(sender: 1, seq: seq), strokeID: id, base: base,
                                       segments: [WireSegment(c1: base, c2: end, end: end)])
            base = end
            let m = SessionMessage.strokeSegments(batch)
            total += m.frame().count
            q.append(m, frame: m.frame())
            // Another sender's message in between does not stop the merge.
            if seq == 25 { q.append(.ping(1), frame: SessionMessage.ping(1).frame()) }
        }
        #expect(q.count == 2)
        #expect(q.bytes < total / 3)
        guard case .strokeSegments(let merged) = q.popFirst()?.message else { Issue.record("no batch"); return }
        #expect(merged.segments.count == 50)
        #expect(merged.seqSpan == 50)
        #expect(merged.stamp.seq == 50)
        // A receiver that saw seq 0 accepts the merged batch without a gap.
        #expect(SessionMessage.strokeSegments(merged).firstSeq == 1)
    }

    @Test func batcherLetsFramesThroughAndCoalescesFasterCallers() {
        var b = SegmentBatcher(interval: .milliseconds(12), burst: 3)
        let t0 = ContinuousClock.now
        let id = UUID()
        let seg = CubicSegment.line(from: Point(0, 0), to: Point(1, 1))
        // Uneven 60 Hz frames (one late, the next early) all go at once.
        for (i, at) in [0, 16, 40, 41, 66, 83].enumerated() {
            b.add([seg], to: id)
            let now = t0 + .milliseconds(at)
            #expect(b.flushTime(now: now) == nil, "frame \(i)")
            #expect(b.take(now: now).count == 1)
        }
        // A caller handing over every sample (every 4 ms) is held to about
        // one batch per 12 ms once its burst is spent, segments merged.
        var batches = 0
        var segments = 0
        var now = t0 + .milliseconds(1000)
        var due: ContinuousClock.Instant?
        for _ in 0..<100 {
            now += .milliseconds(4)
            b.add([seg], to: id)
            if due == nil { due = b.flushTime(now: now) ?? now }
            if let d = due, d <= now {
                segments += b.take(now: now).first?.segments.count ?? 0
                batches += 1
                due = nil
            }
        }
        segments += b.take(now: now + .milliseconds(12)).first?.segments.count ?? 0
        #expect(batches <= 3 + 400 / 12 + 1)
        #expect(segments == 100)
        // A stroke's end takes its segments at once.
        b.add([seg], to: id)
        #expect(b.takeForEnd(of: id).count == 1)
        #expect(b.isEmpty)
    }
}

/// A member that rejoins an address where another session now answers (the
/// host is gone, its port reused) must not slip into that session.
@Suite struct SessionRejoinIdentityTests {
    @Test func aDifferentSessionAtTheSameAddressEndsTheOldOne() {
        var random = SessionMessageGenerator(seed: 42)
        let ours = random.lobby()
        var other = random.lobby()
        other.sessionID = UUID()
        var peer = PeerSession(name: "Ada", role: .drawer)
        _ = peer.receive(.lobby(ours))
        #expect(peer.lobby?.sessionID == ours.sessionID)
        let effects = peer.receive(.lobby(other))
        #expect(peer.phase == .ended(.hostLeft))
        #expect(peer.lobby?.sessionID == ours.sessionID, "the other session's lobby is not taken over")
        #expect(effects.contains { if case .close = $0 { true } else { false } })
        #expect(effects.contains { if case .event(.ended(.hostLeft)) = $0 { true } else { false } })
        // The same session again (a normal rejoin) is fine.
        var again = PeerSession(name: "Ada", role: .drawer)
        _ = again.receive(.lobby(ours))
        _ = again.receive(.lobby(ours))
        #expect(again.phase == .joining)
    }
}
