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
    /// chain of segments with round caps and joins.
    public static func draw(_ stroke: Stroke, in cr: OpaquePointer) {
        setSource(stroke.color, in: cr)
        if stroke.segments.isEmpty {
            cairo_new_path(cr)
            cairo_arc(cr, stroke.start.x, stroke.start.y, stroke.width, 0, 2 * Double.pi)
            cairo_fill(cr)
            return
        }
        setPen(width: stroke.width, in: cr)
        cairo_new_path(cr)
        cairo_move_to(cr, stroke.start.x, stroke.start.y)
        var p = stroke.start
        stroke.segments.withUnsafeBufferPointer { segments in
            for s in segments {
                appendSegment(s, from: p, in: cr)
                p = s.end
            }
        }
        cairo_stroke(cr)
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

    /// Strokes only, skipping those whose bounds miss `clip`.
    public static func draw(_ strokes: [Stroke], in cr: OpaquePointer, clip: Rect, fastInk: Bool = true) {
        if fastInk, let target = InkRasterizer.target(of: cr) {
            InkRasterizer.draw(strokes, on: cr, target: target, cull: clip)
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
        let pad = stroke.segments.isEmpty ? stroke.width : stroke.width / 2
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
