import Foundation

/// Checks a sketch that came from outside (a file, the network) against
/// `SketchLimits` before anything stores, draws or converts it. Comparisons
/// are written so NaN fails them: `(a...b).contains(.nan)` is false.
public enum SketchValidation {
    public static func check(_ doc: SketchDocument) throws(SketchLimitError) {
        try check(doc.meta)
        try check(ops: doc.ops)
    }

    public static func check(_ meta: SketchMeta) throws(SketchLimitError) {
        guard SketchLimits.canvasSide.contains(meta.width), SketchLimits.canvasSide.contains(meta.height) else {
            throw .canvasSize(width: meta.width, height: meta.height)
        }
        try check(date: meta.createdAt)
        try check(name: meta.name)
    }

    public static func check(ops: [SketchOp]) throws(SketchLimitError) {
        guard ops.count <= SketchLimits.maxOps else { throw .tooManyOps(ops.count) }
        var segments = 0
        var strokeIndex = 0
        for op in ops {
            switch op {
            case .addStroke(let s):
                try check(s, index: strokeIndex)
                segments += s.segments.count
                guard segments <= SketchLimits.maxSegments else { throw .tooManySegmentsInSketch(segments) }
                strokeIndex += 1
            case .eraseStroke(_, let by, let at), .clear(let by, let at):
                try check(date: at)
                try check(name: by)
            }
        }
    }

    /// One stroke; `index` is its place among the sketch's strokes, for the message.
    public static func check(_ s: Stroke, index: Int = 0) throws(SketchLimitError) {
        guard SketchLimits.penWidth.contains(s.width) else { throw .penWidth(stroke: index, value: s.width) }
        for c in [s.color.r, s.color.g, s.color.b, s.color.a] where !(0...1).contains(c) {
            throw .color(stroke: index)
        }
        guard s.segments.count <= SketchLimits.maxSegmentsPerStroke else {
            throw .tooManySegments(stroke: index, count: s.segments.count)
        }
        try checkStyle(s, index: index)
        try check(s.start, stroke: index)
        for seg in s.segments {
            try check(seg.c1, stroke: index)
            try check(seg.c2, stroke: index)
            try check(seg.end, stroke: index)
        }
        try check(date: s.startedAt)
        try check(date: s.endedAt)
        try check(name: s.author)
    }

    /// The optional Xournal++ styles: counts first (before any loop over
    /// them), then every number against its range.
    private static func checkStyle(_ s: Stroke, index: Int) throws(SketchLimitError) {
        if let widths = s.widths {
            guard widths.count == s.segments.count else {
                throw .pressureWidths(stroke: index, count: widths.count, segments: s.segments.count)
            }
            for w in widths where !SketchLimits.penWidth.contains(w) { throw .penWidth(stroke: index, value: w) }
        }
        if let fill = s.fill, !SketchLimits.fillOpacity.contains(fill) {
            throw .fillOpacity(stroke: index, value: fill)
        }
        if let dashes = s.dashes {
            guard (1...SketchLimits.maxDashes).contains(dashes.count) else {
                throw .dashCount(stroke: index, count: dashes.count)
            }
            var total = 0.0
            for d in dashes {
                guard SketchLimits.dashLength.contains(d) else { throw .dashLength(stroke: index, value: d) }
                total += d
            }
            guard total >= SketchLimits.minDashPeriod else { throw .dashPeriod(stroke: index, total: total) }
        }
    }

    @inline(__always)
    private static func check(_ p: Point, stroke: Int) throws(SketchLimitError) {
        let m = SketchLimits.coordinateMagnitude
        guard (-m...m).contains(p.x) else { throw .coordinate(stroke: stroke, value: p.x) }
        guard (-m...m).contains(p.y) else { throw .coordinate(stroke: stroke, value: p.y) }
    }

    public static func check(date: Date) throws(SketchLimitError) {
        // Compared as Doubles: Date's `<=` is derived from `<` and lets NaN through.
        let t = date.timeIntervalSince1970
        let r = SketchLimits.dates
        guard (r.lowerBound.timeIntervalSince1970...r.upperBound.timeIntervalSince1970).contains(t) else {
            throw .date(secondsSince1970: t)
        }
    }

    private static func check(name: String) throws(SketchLimitError) {
        // Counting stops just past the limit, so a huge name costs no more.
        let n = name.unicodeScalars.prefix(SketchLimits.maxNameLength + 1).count
        guard n <= SketchLimits.maxNameLength else { throw .nameTooLong(name.unicodeScalars.count) }
    }
}
