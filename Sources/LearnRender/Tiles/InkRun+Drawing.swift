import CCairo
import Foundation
import LearnModel

extension SketchRenderer {
    /// Ink not on the tiles yet, in one path (the live tail of the stroke in
    /// progress): a dot, a single sample as a round cap, or pieces joined round.
    public static func draw(_ run: InkRun, in cr: OpaquePointer) {
        if run.isDot {
            draw(Stroke(author: "", color: run.color, width: run.width, start: run.start, segments: [],
                        startedAt: .distantPast, endedAt: .distantPast), in: cr)
            return
        }
        var points = [run.start]
        points.reserveCapacity(run.segments.count + 1)
        for s in run.segments { points.append(s.end) }
        drawPolyline(points, color: run.color, width: run.width, in: cr)
    }
}
