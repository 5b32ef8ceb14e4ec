import Foundation
import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

extension SessionHost: SessionPen {}
extension SessionClient: SessionPen {}

/// `strokes` random red strokes of 20 segments each, the same for a seed.
func draw(_ pen: any SessionPen, strokes: Int, seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<strokes {
        let id = UUID()
        func point() -> Point { Point(Double(rng.nextInt(below: 1600)), Double(rng.nextInt(below: 1000))) }
        pen.beginStroke(id: id, color: PenColor.red.rgba, width: 4, start: point())
        pen.addSegments((0..<20).map { _ in CubicSegment(c1: point(), c2: point(), end: point()) }, to: id)
        pen.endStroke(id)
    }
}

/// Waits until every copy holds `strokes` strokes and the same ops.
func converge(_ pens: [any SessionPen], strokes: Int) async throws {
    try await eventually("every copy has \(strokes) strokes and they agree", saw: {
        var counts: [Int] = []
        for pen in pens { counts.append(await pen.document().strokes.count) }
        return "stroke counts \(counts)"
    }) {
        var documents: [SketchDocument] = []
        for pen in pens { documents.append(await pen.document()) }
        return documents.allSatisfy { $0.strokes.count == strokes && $0.ops == documents[0].ops }
    }
}
