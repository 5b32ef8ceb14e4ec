import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

@Suite struct SketchDocumentTests {
    let meta = SketchMeta(name: "Zoo", guides: .squared, createdAt: sketchDate(0))

    func stroke(_ n: Int, at t: Double) -> Stroke {
        polylineStroke([Point(Double(n) * 10, 10), Point(Double(n) * 10 + 50, 80)], at: t)
    }

    @Test func addEraseAndClearChangeTheVisibleInk() {
        var doc = SketchDocument(meta: meta)
        let a = stroke(1, at: 1), b = stroke(2, at: 2), c = stroke(3, at: 3)
        #expect(doc.apply(.addStroke(a)) == true)
        #expect(doc.apply(.addStroke(b)) == true)
        #expect(doc.apply(.eraseStroke(id: a.id, by: "Ben", at: sketchDate(2.5))) == true)
        #expect(doc.strokes == [b])
        #expect(doc.apply(.clear(by: "Teacher", at: sketchDate(2.8))) == true)
        #expect(doc.strokes.isEmpty)
        #expect(doc.apply(.addStroke(c)) == true)
        #expect(doc.strokes == [c])
        #expect(doc.ops.count == 5)
    }

    @Test func opsWithoutEffectAreIgnored() {
        var doc = SketchDocument(meta: meta)
        let a = stroke(1, at: 1)
        #expect(doc.apply(.addStroke(a)) == true)
        // A duplicate from the LAN or a resend: the log must not grow.
        #expect(doc.apply(.addStroke(a)) == false)
        #expect(doc.apply(.eraseStroke(id: UUID(), by: "Ben", at: sketchDate(2))) == false)
        #expect(doc.apply(.eraseStroke(id: a.id, by: "Ben", at: sketchDate(2))) == true)
        #expect(doc.apply(.eraseStroke(id: a.id, by: "Cem", at: sketchDate(3))) == false)
        #expect(doc.ops.count == 2)
        #expect(doc.strokes.isEmpty)
    }

    @Test func replaysToADate() {
        let a = stroke(1, at: 1), b = stroke(2, at: 2), c = stroke(3, at: 5)
        // Stroke dates are their end dates: a ends at 2, b at 3, c at 6.
        let doc = SketchDocument(meta: meta, ops: [
            .addStroke(a), .addStroke(b), .eraseStroke(id: a.id, by: "Ben", at: sketchDate(4)),
            .clear(by: "Teacher", at: sketchDate(5)), .addStroke(c),
        ])
        #expect(doc.strokes(at: sketchDate(0)).isEmpty)
        #expect(doc.strokes(at: sketchDate(2)) == [a])
        #expect(doc.strokes(at: sketchDate(3.5)) == [a, b])
        #expect(doc.strokes(at: sketchDate(4)) == [b])
        #expect(doc.strokes(at: sketchDate(5.5)).isEmpty)
        #expect(doc.strokes(at: sketchDate(100)) == [c])
    }

    @Test func replaysByOpCount() {
        let a = stroke(1, at: 1), b = stroke(2, at: 2)
        let doc = SketchDocument(meta: meta, ops: [
            .addStroke(a), .addStroke(b), .eraseStroke(id: b.id, by: "Ben", at: sketchDate(4)),
        ])
        #expect(doc.strokes(afterOps: -1).isEmpty)
        #expect(doc.strokes(afterOps: 0).isEmpty)
        #expect(doc.strokes(afterOps: 1) == [a])
        #expect(doc.strokes(afterOps: 2) == [a, b])
        #expect(doc.strokes(afterOps: 3) == [a])
        #expect(doc.strokes(afterOps: 99) == [a])
    }

    @Test func buildingFromALogEqualsApplyingItOpByOp() {
        let strokes = SketchGenerator(seed: 9).strokes(count: 30, pointsPerStroke: 12)
        var ops = strokes.map(SketchOp.addStroke)
        ops.insert(.eraseStroke(id: strokes[3].id, by: "Dora", at: sketchDate(10)), at: 10)
        ops.insert(.addStroke(strokes[5]), at: 12)  // duplicate, dropped
        var incremental = SketchDocument(meta: meta)
        for op in ops { incremental.apply(op) }
        let built = SketchDocument(meta: meta, ops: ops)
        #expect(built == incremental)
        #expect(built.ops.count == ops.count - 1)
        #expect(built.strokes.count == 29)
    }

    @Test func opKindsAreNamed() {
        let a = stroke(1, at: 1)
        #expect(SketchOp.addStroke(a).kind == .addStroke)
        #expect(SketchOp.eraseStroke(id: a.id, by: "x", at: sketchDate(1)).kind == .eraseStroke)
        #expect(SketchOp.clear(by: "x", at: sketchDate(1)).kind == .clear)
    }
}
