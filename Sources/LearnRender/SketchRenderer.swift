import CCairo
import LearnModel

/// Draws sketch geometry with Cairo, in canvas units: the caller sets the
/// transform (zoom, scroll, export scale). Needs no GTK initialisation, so the
/// headless `export` command and the benchmarks use the very same code as the
/// canvas widget.
public enum SketchRenderer {
    /// Guides must read as paper, never as ink: light blue-grey and thin.
    public static let guideColor = RGBA(r: 0.72, g: 0.80, b: 0.88)
    public static let guideWidth = 1.0
    /// The margin of lined paper is tinted like an exercise book's.
    public static let marginColor = RGBA(r: 0.93, g: 0.70, b: 0.72)

    /// White canvas plus its line guides.
    public static func drawBackground(meta: SketchMeta, in cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, 0, 0, meta.width, meta.height)
        cairo_fill(cr)
        drawGuides(meta: meta, in: cr)
        cairo_restore(cr)
    }

    /// One finished stroke: a dot (filled circle of radius `width`) or its
    /// chain of segments with round caps and joins. A styled stroke (see
    /// `Stroke`) is drawn as Xournal++ draws it.
    public static func draw(_ stroke: Stroke, in cr: OpaquePointer) {
        if stroke.segments.isEmpty {
            if stroke.blend == .multiply { cairo_save(cr); cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY) }
            setSource(stroke.color, in: cr)
            cairo_new_path(cr)
            cairo_arc(cr, stroke.start.x, stroke.start.y, stroke.width, 0, 2 * Double.pi)
            cairo_fill(cr)
            if stroke.blend == .multiply { cairo_restore(cr) }
            return
        }
        if stroke.isPlain {
            setSource(stroke.color, in: cr)
            setPen(width: stroke.width, in: cr)
            appendPath(of: stroke, in: cr)
            cairo_stroke(cr)
            return
        }
        drawStyled(stroke, in: cr)
    }

    /// Fill, pressure, dashes and blending, in Xournal++'s way (its
    /// StrokeView): the fill first, the path closed and filled in the
    /// stroke's colour at the fill's opacity; then the line, a pressure
    /// stroke one segment at a time at that segment's width (so the dash
    /// pattern runs on from piece to piece); a multiplying (highlighter)
    /// stroke onto what is under it. A filled highlighter is fill and line
    /// opaque in a group, multiplied on at the fill's opacity, as in
    /// Xournal++, so the two never show as two layers.
    private static func drawStyled(_ stroke: Stroke, in cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if stroke.blend == .multiply { cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY) }
        var lineColor = stroke.color
        let group = stroke.blend == .multiply && stroke.fill != nil
        if group {
            cairo_push_group(cr)
            lineColor.a = 1
        }
        if let fill = stroke.fill {
            var c = stroke.color
            c.a = group ? 1 : fill
            setSource(c, in: cr)
            appendPath(of: stroke, in: cr)
            cairo_fill(cr)
        }
        setSource(lineColor, in: cr)
        setPen(width: stroke.width, in: cr)
        var dashes = stroke.dashes.flatMap { $0.isEmpty ? nil : $0 }
        if let pattern = dashes, !(lengthBound(of: stroke) / pattern.reduce(0, +) <= maxDashRepeats) {
            // Cairo takes a step per dash, wherever it lies: a hostile file's
            // fine pattern along lines a million units long would hang the
            // drawing. Such a line (no real page has one) is drawn solid.
            dashes = nil
        }
        if stroke.widths == nil {
            if let dashes { cairo_set_dash(cr, dashes, Int32(dashes.count), 0) }
            appendPath(of: stroke, in: cr)
            cairo_stroke(cr)
        } else {
            var p = stroke.start
            var offset = 0.0
            for (k, s) in stroke.segments.enumerated() {
                cairo_set_line_width(cr, stroke.width(ofSegment: k))
                if let dashes { cairo_set_dash(cr, dashes, Int32(dashes.count), offset) }
                cairo_new_path(cr)
                cairo_move_to(cr, p.x, p.y)
                appendSegment(s, from: p, in: cr)
                if dashes != nil { offset += length(of: s, from: p) }
                cairo_stroke(cr)
                p = s.end
            }
        }
        if group {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, stroke.fill ?? 1)
        }
    }

    /// How often a dash pattern may repeat along one stroke before it is
    /// drawn solid: far more than along any page (Xournal++'s finest
    /// pattern repeats every 3.5 points; a canvas side is at most 20,000).
    public static let maxDashRepeats = 100_000.0

    /// At least the stroke's length: its control polygon's.
    private static func lengthBound(of stroke: Stroke) -> Double {
        var total = 0.0
        var p = stroke.start
        for s in stroke.segments {
            total += p.distance(to: s.c1) + s.c1.distance(to: s.c2) + s.c2.distance(to: s.end)
            p = s.end
        }
        return total
    }

    /// Arc length of a segment, for the dash offset of the next one; a
    /// curve is measured along its flattened polyline.
    private static func length(of s: CubicSegment, from p: Point) -> Double {
        if s.isLine(from: p) { return p.distance(to: s.end) }
        var pts = [p]
        StrokeFlattening.appendPoints(of: s, from: p, tolerance: 0.05, to: &pts)
        var total = 0.0
        for k in 1..<pts.count { total += pts[k - 1].distance(to: pts[k]) }
        return total
    }

    /// The stroke's chain of segments as Cairo's current path.
    private static func appendPath(of stroke: Stroke, in cr: OpaquePointer) {
        cairo_new_path(cr)
        cairo_move_to(cr, stroke.start.x, stroke.start.y)
        var p = stroke.start
        stroke.segments.withUnsafeBufferPointer { segments in
            for s in segments {
                appendSegment(s, from: p, in: cr)
                p = s.end
            }
        }
    }

    /// One segment on its own, as the pen moves. Round caps make consecutive
    /// segments meet seamlessly, since they are tangent-continuous.
    public static func drawSegment(_ segment: CubicSegment, from start: Point, color: RGBA, width: Double,
                            in cr: OpaquePointer) {
        setSource(color, in: cr)
        setPen(width: width, in: cr)
        cairo_new_path(cr)
        cairo_move_to(cr, start.x, start.y)
        appendSegment(segment, from: start, in: cr)
        cairo_stroke(cr)
    }

    /// The builder's pending tail (samples not yet fitted into a segment).
    /// A single point is drawn as a round cap, which Cairo gives a zero-length
    /// line.
    public static func drawPolyline(_ points: [Point], color: RGBA, width: Double, in cr: OpaquePointer) {
        guard let first = points.first else { return }
        setSource(color, in: cr)
        setPen(width: width, in: cr)
        cairo_new_path(cr)
        cairo_move_to(cr, first.x, first.y)
        if points.count == 1 {
            cairo_line_to(cr, first.x, first.y)
        } else {
            points.withUnsafeBufferPointer { pts in
                for q in pts.dropFirst() { cairo_line_to(cr, q.x, q.y) }
            }
        }
        cairo_stroke(cr)
    }

    /// Background and every visible stroke that can touch `clip` (canvas
    /// units). Without a clip, Cairo's current clip extents are used, so a
    /// caller that clipped to a damaged rectangle pays only for that area.
    /// `fastInk` lets image surfaces take `InkRasterizer`; false forces
    /// Cairo's own stroker (for comparisons).
    public static func draw(_ doc: SketchDocument, in cr: OpaquePointer, clip: Rect? = nil, fastInk: Bool = true) {
        let area = clip ?? currentClip(cr)
        drawBackground(meta: doc.meta, in: cr)
        draw(doc.strokes, in: cr, clip: area, fastInk: fastInk)
    }

    /// Strokes only, skipping those whose bounds miss `clip`. Plain strokes
    /// take `InkRasterizer` where it applies; a styled one (fill, pressure,
    /// dashes, blending: imported from Xournal++, rare) is drawn by Cairo in
    /// its place in the order, between runs of plain ones.
    public static func draw(_ strokes: [Stroke], in cr: OpaquePointer, clip: Rect, fastInk: Bool = true) {
        if fastInk, InkRasterizer.target(of: cr) != nil {
            guard strokes.contains(where: { !$0.isPlain }) else {
                if let target = InkRasterizer.target(of: cr) {
                    InkRasterizer.draw(strokes, on: cr, target: target, cull: clip)
                }
                return
            }
            var runStart = 0
            func flushRun(upTo end: Int) {
                // The target is taken again after Cairo drew: that flushes
                // Cairo's pending drawing into the pixels.
                if runStart < end, let target = InkRasterizer.target(of: cr) {
                    InkRasterizer.draw(Array(strokes[runStart..<end]), on: cr, target: target, cull: clip)
                }
            }
            for i in strokes.indices where !strokes[i].isPlain {
                flushRun(upTo: i)
                runStart = i + 1
                if inkBounds(of: strokes[i]).intersects(clip) {
                    cairo_save(cr)
                    draw(strokes[i], in: cr)
                    cairo_restore(cr)
                }
            }
            flushRun(upTo: strokes.count)
            return
        }
        cairo_save(cr)
        strokes.withUnsafeBufferPointer { all in
            for s in all where inkBounds(of: s).intersects(clip) {
                draw(s, in: cr)
            }
        }
        cairo_restore(cr)
    }

    /// Cairo's clip extents in user space (canvas units).
    public static func currentClip(_ cr: OpaquePointer) -> Rect {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Like `Stroke.bounds` but without building intermediate rectangles per
    /// segment: culling runs over every stroke on every redraw.
    public static func inkBounds(of stroke: Stroke) -> Rect {
        var minX = stroke.start.x, maxX = minX, minY = stroke.start.y, maxY = minY
        stroke.segments.withUnsafeBufferPointer { segments in
            for s in segments {
                minX = min(minX, s.c1.x, s.c2.x, s.end.x)
                maxX = max(maxX, s.c1.x, s.c2.x, s.end.x)
                minY = min(minY, s.c1.y, s.c2.y, s.end.y)
                maxY = max(maxY, s.c1.y, s.c2.y, s.end.y)
            }
        }
        let pad = stroke.segments.isEmpty ? stroke.width : (stroke.widths == nil ? stroke.width : stroke.maxWidth) / 2
        return Rect(x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad)
    }

    // MARK: - Pieces

    /// All guide lines of one kind go into one path and one stroke call.
    private static func drawGuides(meta: SketchMeta, in cr: OpaquePointer) {
        guard meta.guides != .none else { return }
        let lines = GuideGeometry.lines(for: meta.guides, width: meta.width, height: meta.height,
                                        in: currentClip(cr))
        cairo_set_line_width(cr, guideWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        for (kind, color) in [(GuideLine.Kind.grid, guideColor), (.rule, guideColor), (.margin, marginColor)] {
            cairo_new_path(cr)
            var any = false
            for line in lines where line.kind == kind {
                let a = snapped(line.from, vertical: line.from.x == line.to.x, in: cr)
                let b = snapped(line.to, vertical: line.from.x == line.to.x, in: cr)
                cairo_move_to(cr, a.x, a.y)
                cairo_line_to(cr, b.x, b.y)
                any = true
            }
            guard any else { continue }
            setSource(color, in: cr)
            cairo_stroke(cr)
        }
    }

    /// Moves a guide line onto a device pixel's centre, so a one-pixel line
    /// stays crisp instead of smearing grey over two pixels.
    private static func snapped(_ p: Point, vertical: Bool, in cr: OpaquePointer) -> Point {
        var x = p.x, y = p.y
        cairo_user_to_device(cr, &x, &y)
        if vertical { x = x.rounded(.down) + 0.5 } else { y = y.rounded(.down) + 0.5 }
        cairo_device_to_user(cr, &x, &y)
        return Point(x, y)
    }

    @inline(__always)
    private static func appendSegment(_ s: CubicSegment, from p: Point, in cr: OpaquePointer) {
        // Straight pieces skip Cairo's curve flattening entirely.
        if s.c1 == p && s.c2 == s.end {
            cairo_line_to(cr, s.end.x, s.end.y)
        } else {
            cairo_curve_to(cr, s.c1.x, s.c1.y, s.c2.x, s.c2.y, s.end.x, s.end.y)
        }
    }

    @inline(__always)
    private static func setSource(_ c: RGBA, in cr: OpaquePointer) {
        if c.a >= 1 {
            cairo_set_source_rgb(cr, c.r, c.g, c.b)
        } else {
            cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
        }
    }

    @inline(__always)
    private static func setPen(width: Double, in cr: OpaquePointer) {
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    }
}
