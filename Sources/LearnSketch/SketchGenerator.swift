import Foundation
import LearnBasics

/// Deterministic felt-pen scribbles for tests and benchmarks ("a 5,000-stroke
/// × 60-point sketch"): the same seed always gives the same document, ids and
/// dates included, on every machine.
public struct SketchGenerator: Sendable {
    /// How generated samples become segments.
    public enum Shape: Hashable, Sendable {
        /// Through `StrokeBuilder`, like real drawing: about one cubic per three samples.
        case smoothed
        /// One straight segment per sample, like strokes imported from
        /// Xournal++; a file exported from it holds exactly `pointsPerStroke`
        /// points per stroke.
        case polyline
    }

    public var seed: UInt64
    public var canvasWidth: Double
    public var canvasHeight: Double
    public var authors: [String]
    /// The first stroke starts here; strokes follow two seconds apart.
    public var startDate: Date

    public static let defaultStartDate = Date(timeIntervalSince1970: 1_750_000_000)

    public init(seed: UInt64 = 1, canvasWidth: Double = SketchMeta.defaultWidth,
                canvasHeight: Double = SketchMeta.defaultHeight,
                authors: [String] = ["Anna", "Ben", "Cem", "Dora"], startDate: Date = defaultStartDate) {
        self.seed = seed
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.authors = authors.isEmpty ? ["Pupil"] : authors
        self.startDate = startDate
    }

    public func document(strokes count: Int, pointsPerStroke points: Int, shape: Shape = .smoothed,
                         name: String = "Generated sketch", guides: LineGuides = .none) -> SketchDocument {
        var rng = SplitMix64(seed: seed)
        let meta = SketchMeta(id: Self.uuid(&rng), name: name, guides: guides, width: canvasWidth,
                              height: canvasHeight, createdAt: startDate)
        let ops = makeStrokes(count: count, points: points, shape: shape, rng: &rng).map(SketchOp.addStroke)
        return SketchDocument(meta: meta, ops: ops)
    }

    public func strokes(count: Int, pointsPerStroke points: Int, shape: Shape = .smoothed) -> [Stroke] {
        var rng = SplitMix64(seed: seed)
        _ = Self.uuid(&rng)  // keep ids identical to those `document` gives
        return makeStrokes(count: count, points: points, shape: shape, rng: &rng)
    }

    /// Raw pointer samples of one scribble: a pen wandering with smoothly
    /// changing direction and speed, bouncing off the canvas margins.
    public static func scribble(points: Int, width: Double, height: Double,
                                using rng: inout SplitMix64) -> [Point] {
        guard points > 0 else { return [] }
        let margin = min(40, width / 4, height / 4)
        let xs = margin...(width - margin), ys = margin...(height - margin)
        var p = Point(rng.nextDouble(in: xs), rng.nextDouble(in: ys))
        var heading = rng.nextDouble(in: 0...(2 * .pi))
        var turn = rng.nextDouble(in: -0.15...0.15)
        var out = [p]
        out.reserveCapacity(points)
        while out.count < points {
            turn = min(max(turn + rng.nextDouble(in: -0.08...0.08), -0.35), 0.35)
            heading += turn
            let step = rng.nextDouble(in: 3...9)
            var q = Point(p.x + step * cos(heading), p.y + step * sin(heading))
            if !xs.contains(q.x) { heading = .pi - heading; q.x = min(max(q.x, xs.lowerBound), xs.upperBound) }
            if !ys.contains(q.y) { heading = -heading; q.y = min(max(q.y, ys.lowerBound), ys.upperBound) }
            // Clamping at a corner could repeat a point; the builder would drop it.
            if q.distance(to: p) < 1 { continue }
            out.append(q)
            p = q
        }
        return out
    }

    private func makeStrokes(count: Int, points: Int, shape: Shape, rng: inout SplitMix64) -> [Stroke] {
        var out: [Stroke] = []
        out.reserveCapacity(max(0, count))
        for i in 0..<max(0, count) {
            let id = Self.uuid(&rng)
            let color = PenColor.allCases[rng.nextInt(below: PenColor.allCases.count)]
            let width = PenWidth.allCases[rng.nextInt(below: PenWidth.allCases.count)]
            let author = authors[rng.nextInt(below: authors.count)]
            let samples = Self.scribble(points: max(1, points), width: canvasWidth, height: canvasHeight, using: &rng)
            let began = startDate.addingTimeInterval(Double(i) * 2)
            // 60 samples a second, as GTK delivers motion events.
            let ended = began.addingTimeInterval(Double(samples.count) / 60)
            switch shape {
            case .smoothed:
                var b = StrokeBuilder(id: id, author: author, pen: Pen(color: color, width: width), start: samples[0],
                                      at: began)
                b.add(contentsOf: samples.dropFirst())
                out.append(b.finish(at: ended).stroke)
            case .polyline:
                var segments: [CubicSegment] = []
                segments.reserveCapacity(samples.count - 1)
                for k in 1..<samples.count { segments.append(.line(from: samples[k - 1], to: samples[k])) }
                out.append(Stroke(id: id, author: author, color: color.rgba, width: width.units, start: samples[0],
                                  segments: segments, startedAt: began, endedAt: ended))
            }
        }
        return out
    }

    /// A version-4 UUID drawn from the generator, so ids repeat with the seed.
    static func uuid(_ rng: inout SplitMix64) -> UUID {
        let a = rng.next()
        return UUID.version4(high: a, low: rng.next())
    }
}
