import Foundation
import Testing
@testable import LearnModel

/// What a member takes from a host it cannot trust: names through the same
/// cleaning rule as on the host, ink and dates only within the file limits,
/// so its copy of the sketch always saves and opens again.
@Suite struct RogueHostTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let far = WireTime(milliseconds: WireTime.limit)
    let p0 = WirePoint(x: 64, y: 64)

    func lobby(hostName: String = "Teacher", memberName: String = "Anna", width: Int = 1600,
               createdAt: WireTime? = nil) -> Lobby {
        Lobby(sessionID: UUID(), createdAt: createdAt ?? WireTime(now),
              params: SessionParams(name: "Zoo", canvasWidth: width), settings: SessionSettings(),
              hostPeerID: UUID(), members: [
                LobbyMember(index: 0, peerID: UUID(), name: hostName, role: .drawer, state: .accepted,
                            connected: true, hasAvatar: false),
                LobbyMember(index: 1, peerID: UUID(), name: memberName, role: .drawer, state: .accepted,
                            connected: true, hasAvatar: false),
              ], started: true)
    }

    /// A member in a started session with this host's lobby.
    func member(_ l: Lobby? = nil) -> PeerSession {
        var p = PeerSession(name: "Anna", role: .drawer)
        _ = p.connected()
        for m in [SessionMessage.lobby(l ?? lobby()), .accepted(Accepted(token: .random(), yourIndex: 1, sketch: SessionSketch())),
                  .start(Start(secondsLeft: nil))] {
            _ = p.receive(SessionSimulation.throughCodec(m))
        }
        return p
    }

    func begin(seq: UInt64, id: UUID = UUID(), author: String = "Teacher", width: WireLength = WireLength(4),
               start: WirePoint? = nil, time: WireTime? = nil) -> StrokeBegin {
        StrokeBegin(stamp: OpStamp(sender: 0, seq: seq), strokeID: id, author: author, color: RGBA8(r: 0, g: 0, b: 0, a: 255),
                    width: width, start: start ?? p0, time: time ?? WireTime(now))
    }

    @Test func namesFromTheHostAreCleanedLikeTheHostCleansThem() {
        let long = String(repeating: "x", count: 240)  // under the wire's 256 bytes, over a file's 200 characters
        var p = member(lobby(hostName: "Frau\u{202E} Kim\n", memberName: "\u{2067}Anna\u{7}" + long))
        let names = p.lobby?.members.map(\.name) ?? []
        #expect(names[0] == "Frau Kim")
        #expect(names[1] == DisplayName.member("Anna" + long))
        #expect(names[1].unicodeScalars.count <= SketchLimits.maxNameLength)
        // Authors on ink too.
        let b = begin(seq: 1, author: "Evil\u{202E}reh" + long)
        _ = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        #expect(p.live.first?.author == DisplayName.member("Evilreh" + long))
    }

    @Test func aPageOrDateAFileCannotHoldIsKeptWithinTheLimits() throws {
        let p = member(lobby(width: 1 << 20, createdAt: far))
        try SketchValidation.check(p.document.meta)
    }

    @Test(arguments: [
        ("far off the page", WireLength(4), WirePoint(x: .max, y: 0), WireTime(milliseconds: 1_750_000_000_000)),
        ("no width", WireLength(raw: 0), WirePoint(x: 64, y: 64), WireTime(milliseconds: 1_750_000_000_000)),
        ("an impossible pen", WireLength(raw: .max), WirePoint(x: 64, y: 64), WireTime(milliseconds: 1_750_000_000_000)),
        ("in the year 6000", WireLength(4), WirePoint(x: 64, y: 64), WireTime(milliseconds: WireTime.limit)),
    ])
    func aStrokeOutsideTheFileLimitsIsLeftOut(_ what: String, _ width: WireLength, _ start: WirePoint, _ time: WireTime) {
        var p = member()
        let b = begin(seq: 1, width: width, start: start, time: time)
        _ = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        _ = p.receive(SessionSimulation.throughCodec(.strokeEnd(StrokeEnd(stamp: OpStamp(sender: 0, seq: 2),
                                                                          strokeID: b.strokeID, time: WireTime(now)))))
        #expect(p.live.isEmpty, "\(what)")
        #expect(p.document.ops.isEmpty, "\(what)")
        #expect(p.rejectedCount == 2, "\(what)")
    }

    @Test func piecesOffThePageAndFarDatesAreRefusedOrKeptInRange() throws {
        var p = member()
        let b = begin(seq: 1)
        _ = p.receive(SessionSimulation.throughCodec(.strokeBegin(b)))
        let off = WireSegment(c1: p0, c2: p0, end: WirePoint(x: Int32.max, y: 0))
        _ = p.receive(SessionSimulation.throughCodec(.strokeSegments(StrokeSegments(
            stamp: OpStamp(sender: 0, seq: 2), strokeID: b.strokeID, base: p0, segments: [off]))))
        #expect(p.live.first?.segments.isEmpty == true)
        // An end dated in the year 6000 still commits the stroke, at a date a file can hold.
        _ = p.receive(SessionSimulation.throughCodec(.strokeEnd(StrokeEnd(stamp: OpStamp(sender: 0, seq: 3),
                                                                          strokeID: b.strokeID, time: far))))
        #expect(p.document.strokes.count == 1)
        // Erasing and clearing far in the future are left out.
        _ = p.receive(SessionSimulation.throughCodec(.erase(Erase(stamp: OpStamp(sender: 0, seq: 4), strokeID: b.strokeID,
                                                                  author: "T", time: far))))
        _ = p.receive(SessionSimulation.throughCodec(.clear(Clear(stamp: OpStamp(sender: 0, seq: 5), author: "T", time: far))))
        #expect(p.document.strokes.count == 1)
        // A stroke still open when the session ends "in the past" too.
        _ = p.receive(SessionSimulation.throughCodec(.strokeBegin(begin(seq: 6))))
        _ = p.receive(SessionSimulation.throughCodec(.end(End(reason: .hostEnded, at: WireTime(milliseconds: -WireTime.limit)))))
        #expect(p.document.strokes.count == 2)
        try SketchValidation.check(p.document)
    }

    @Test func aSnapshotKeepsOnlyWhatAFileCanHold() throws {
        var p = member()
        func stroke(width: Double, x: Double, at date: Date) -> SketchOp {
            .addStroke(Stroke(id: UUID(), author: "T\u{202E}", color: RGBA(r: 0, g: 0, b: 0, a: 1), width: width,
                              start: Point(x, 0), segments: [CubicSegment(c1: Point(x, 1), c2: Point(x, 2), end: Point(x, 3))],
                              startedAt: date, endedAt: date))
        }
        let good = stroke(width: 4, x: 10, at: now)
        let ops: [SketchOp] = [
            good,
            stroke(width: 5000, x: 10, at: now),
            stroke(width: 4, x: 3_000_000, at: now),
            stroke(width: 4, x: 10, at: far.date),
            .eraseStroke(id: UUID(), by: "T", at: far.date),
            .clear(by: "T", at: WireTime(milliseconds: -WireTime.limit).date),
        ]
        let badLive = LiveStroke(begin: begin(seq: 7, width: WireLength(raw: 0)))
        for m in [SessionMessage.snapshotBegin(SnapshotBegin(opCount: 6)), .snapshotOps(ops), .snapshotStroke(badLive),
                  .snapshotEnd(SnapshotEnd(lastSeq: [OpStamp(sender: 0, seq: 7)]))] {
            _ = p.receive(SessionSimulation.throughCodec(m))
        }
        #expect(p.document.ops.count == 1)
        #expect(p.document.strokes.first?.author == "T")
        #expect(p.live.isEmpty)
        #expect(p.rejectedCount == 6)
        try SketchValidation.check(p.document)
    }

    @Test func aRefusalLetsTheMemberForgetTheOpAndSaysWhy() {
        var p = member()
        let id = UUID()
        let sent = p.beginStroke(id: id, color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 4, start: Point(1, 1))
        #expect(sent.count == 1)
        // A piece already on its way when the refusal comes: the host drops
        // it unanswered, so it must not wait for an echo either.
        let piece = CubicSegment(c1: Point(1, 1), c2: Point(2, 2), end: Point(3, 3))
        #expect(p.addSegments([piece], to: id).count == 1)
        #expect(p.unconfirmedOpCount == 2)
        let fx = p.receive(SessionSimulation.throughCodec(.opRefused(OpRefusal(stamp: OpStamp(sender: 1, seq: 1),
                                                                              reason: .sketchFull))))
        #expect(fx == [.event(.opRefused(.sketchFull, member: 1)), .event(.ownStrokeRefused(id))])
        #expect(p.unconfirmedOpCount == 0)
        // The refused stroke is not continued.
        #expect(p.addSegments([piece], to: id).isEmpty)
        #expect(p.endStroke(id).isEmpty)
        // Someone else's refusal is none of this member's business.
        #expect(p.receive(.opRefused(OpRefusal(stamp: OpStamp(sender: 2, seq: 5), reason: .outsideLimits))).isEmpty)
    }

    /// A refusal of an op this member never sent (a seq ahead of its own)
    /// would make it forget every op still on its way and drop the echoes
    /// of later ones as repeats; no honest host sends one.
    @Test func aRefusalOfAnOpNotYetSentIsIgnored() {
        var p = member()
        let id = UUID()
        _ = p.beginStroke(id: id, color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 4, start: Point(1, 1))
        let bogus = OpRefusal(stamp: OpStamp(sender: 1, seq: SessionLimits.maxSeq), reason: .sketchFull)
        #expect(p.receive(SessionSimulation.throughCodec(.opRefused(bogus))).isEmpty)
        #expect(p.unconfirmedOpCount == 1)
        // The stroke goes on and its echo is still taken.
        let piece = CubicSegment(c1: Point(1, 1), c2: Point(2, 2), end: Point(3, 3))
        #expect(p.addSegments([piece], to: id).count == 1)
    }

    @Test func refusalsAndTheFullLobbyTravelIntact() {
        for m: SessionMessage in [.opRefused(OpRefusal(stamp: OpStamp(sender: 3, seq: 9), reason: .sketchFull)),
                                  .opRefused(OpRefusal(stamp: OpStamp(sender: 1, seq: 1), reason: .tooManyOpenStrokes)),
                                  .opRefused(OpRefusal(stamp: OpStamp(sender: 1, seq: 1), reason: .outsideLimits)),
                                  .opRefused(OpRefusal(stamp: OpStamp(sender: 1, seq: 1), reason: .other(77))),
                                  .declined(.lobbyFull)] {
            #expect(SessionSimulation.throughCodec(m) == m)
        }
    }
}
