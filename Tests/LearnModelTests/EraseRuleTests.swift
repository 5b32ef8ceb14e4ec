import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct EraseRuleTests {
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func stroke(_ author: String, _ n: Double) -> Stroke {
        Stroke(author: author, color: PenColor.black.rgba, width: 4, start: Point(n, n), segments: [],
               startedAt: t0.addingTimeInterval(n), endedAt: t0.addingTimeInterval(n))
    }

    func document(_ strokes: [Stroke]) -> SketchDocument {
        SketchDocument(meta: SketchMeta(name: "x"), ops: strokes.map(SketchOp.addStroke))
    }

    @Test func theEraserTakesAnyStrokeUnlessLimitedToOwnLines() {
        let mine = stroke("Mia", 1), theirs = stroke("Ole", 2)
        let doc = document([mine, theirs])
        let open = EraseRule()
        #expect(open.allows(erasing: theirs.id, by: "Mia", in: doc))
        let ownOnly = EraseRule(ownStrokesOnly: true)
        #expect(ownOnly.allows(erasing: mine.id, by: "Mia", in: doc))
        #expect(!ownOnly.allows(erasing: theirs.id, by: "Mia", in: doc))
    }

    /// Undo walks back through the pupil's own steps, and a line an undo
    /// drew again (after a rub of the eraser) is newer than the ones before
    /// it: so it may take any of the pupil's own lines, never another's.
    @Test func undoTakesOnlyOwnStrokesEvenWithTheEraserOff() {
        let first = stroke("Mia", 1), other = stroke("Ole", 2), second = stroke("Mia", 3)
        let doc = document([first, other, second])
        let rule = EraseRule(eraserAllowed: false, undoAllowed: true)
        #expect(EraseRule.lastOwnStroke(of: "Mia", in: doc)?.id == second.id)
        #expect(rule.allows(erasing: second.id, by: "Mia", in: doc))
        #expect(rule.allows(erasing: first.id, by: "Mia", in: doc))
        #expect(!rule.allows(erasing: other.id, by: "Mia", in: doc))
        #expect(!EraseRule(eraserAllowed: false).allows(erasing: second.id, by: "Mia", in: doc), "undo off")
        #expect(!rule.allows(erasing: UUID(), by: "Mia", in: doc), "not on the sheet")
    }

    @Test func theSettingsTravelInTheLobbyAndUnknownBitsAreIgnored() {
        for flags in UInt8(0)...15 {
            #expect(SessionSettings(wireFlags: flags).wireFlags == flags)
        }
        #expect(SessionSettings(wireFlags: 0xF0) == SessionSettings(wireFlags: 0), "bits of later settings are skipped")
        let s = SessionSettings(clearAllowed: false, eraserAllowed: true, undoOwnAllowed: true, eraserOwnStrokesOnly: true)
        #expect(SessionSettings(wireFlags: s.wireFlags) == s)
    }
}

/// The host decides erasing for everyone, by the member's name in the
/// lobby, whatever a frame claims.
@Suite struct SessionEraseRuleTests {
    func dot(_ sim: inout SessionSimulation, _ c: ConnectionID, at x: Double) -> UUID {
        let id = UUID()
        sim.peerDo(c) { $0.beginStroke(id: id, color: PenColor.black.rgba, width: 4, start: Point(x, x)) }
        sim.peerDo(c) { $0.endStroke(id) }
        sim.run()
        return id
    }

    func forgedErase(_ sim: inout SessionSimulation, from c: ConnectionID, seq: UInt64, of id: UUID) {
        sim.hostDo(.received(c, .erase(Erase(stamp: OpStamp(sender: MemberIndex(c), seq: seq), strokeID: id,
                                             author: c == 1 ? "P2" : "P1", time: WireTime(milliseconds: 0)))))
        sim.run()
    }

    @Test func withOwnLinesOnlyAMemberCannotEraseAnothersStroke() {
        var sim = SessionSimulation.started(2, settings: SessionSettings(eraserOwnStrokesOnly: true))
        let others = dot(&sim, 2, at: 10)
        let mine = dot(&sim, 1, at: 50)
        var refused: [PeerSession.Effect] = []
        sim.peerDo(1) { p in refused = p.erase(others); return refused }
        #expect(refused == [.event(.refused("the eraser may not take that line"))], "the member's own app does not even send it")
        sim.peerDo(1) { $0.erase(mine) }
        sim.run()
        #expect(sim.host.document.strokes.map(\.id) == [others])
        #expect(sim.peers[1]?.document.strokes.map(\.id) == [others])
        // A forged frame (claiming to be P2) is refused by the host too.
        forgedErase(&sim, from: 1, seq: 4, of: others)
        #expect(sim.host.document.strokes.map(\.id) == [others])
    }

    @Test func undoWorksWithTheEraserOffButOnlyForOwnStrokes() {
        var sim = SessionSimulation.started(2, settings: SessionSettings(eraserAllowed: false, undoOwnAllowed: true))
        let first = dot(&sim, 1, at: 10)
        let others = dot(&sim, 2, at: 20)
        let second = dot(&sim, 1, at: 30)
        sim.peerDo(1) { $0.erase(others) }
        sim.run()
        #expect(sim.host.document.strokes.count == 3, "not another's")
        sim.peerDo(1) { $0.erase(second) }
        sim.run()
        sim.peerDo(1) { $0.erase(first) }
        sim.run()
        #expect(sim.host.document.strokes.map(\.id) == [others], "undo again takes the next one back")
        var off = SessionSimulation.started(2, settings: SessionSettings(eraserAllowed: false, undoOwnAllowed: false))
        let mine = dot(&off, 1, at: 10)
        off.peerDo(1) { $0.erase(mine) }
        off.run()
        #expect(off.host.document.strokes.count == 1, "with undo off too, nothing of the member's goes")
        forgedErase(&sim, from: 1, seq: 7, of: others)
        #expect(sim.host.document.strokes.map(\.id) == [others], "the host refuses another's stroke as undo")
    }

    @Test func withoutUndoAndEraserNothingIsErased() {
        var sim = SessionSimulation.started(2, settings: SessionSettings(eraserAllowed: false, undoOwnAllowed: false))
        let mine = dot(&sim, 1, at: 10)
        forgedErase(&sim, from: 1, seq: 3, of: mine)
        #expect(sim.host.document.strokes.map(\.id) == [mine])
    }
}
