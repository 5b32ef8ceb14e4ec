import CGtk
import Foundation
import LearnModel

/// Draws finished strokes straight into an image surface's pixels, several
/// times faster than Cairo's general stroker for the thousands of felt-pen
/// strokes of a class sketch (docs/PERFORMANCE.md has the figures).
///
/// A stroke with round caps and joins is exactly the union of "capsules":
/// every piece of its polyline widened by the pen's radius. Each pixel takes
/// the coverage of the nearest capsule, estimated from its distance to the
/// polyline (coverage = radius + ½ − distance, clamped), which is how the
/// outline of a round pen is anti-aliased. A stroke's coverage is gathered in
/// a mask first, so overlapping pieces of one stroke never double its colour,
/// then blended over the pixels in the stroke's colour. Rows are split into
/// bands drawn in parallel; each band still draws the strokes in order.
///
/// Only for what it is exact for: an image surface, scale-and-translate
/// transforms with equal scales, OVER, and a rectangular clip on whole
/// pixels. `SketchRenderer` uses Cairo for everything else.
enum InkRasterizer {
    /// Where and how to draw, taken from a Cairo context.
    struct Target: @unchecked Sendable {
        /// Pixels as native-endian 0xAARRGGBB words (premultiplied); the
        /// memory belongs to the Cairo surface, which outlives the draw call.
        let pixels: UnsafeMutablePointer<UInt8>
        let stride: Int
        let hasAlpha: Bool
        /// Device pixels per canvas unit, and the device position of canvas (0, 0).
        let scale: Double
        let offsetX: Double
        let offsetY: Double
        /// The part of the surface to draw into, in device pixels.
        let clip: PixelRect
    }

    struct PixelRect: Equatable, Sendable {
        var x0: Int, y0: Int, x1: Int, y1: Int  // half-open
        var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    }

    /// The target behind `cr` if the fast path draws exactly what Cairo would
    /// (up to anti-aliasing), else nil.
    static func target(of cr: OpaquePointer) -> Target? {
        guard let surface = cairo_get_target(cr), cairo_get_group_target(cr) == surface,
              cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_get_operator(cr) == CAIRO_OPERATOR_OVER else { return nil }
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else { return nil }
        var dx = 0.0, dy = 0.0
        cairo_surface_get_device_offset(surface, &dx, &dy)
        guard dx == 0, dy == 0 else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.xx == m.yy else { return nil }
        guard let clip = deviceClip(cr, surface: surface, matrix: m) else { return nil }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        return Target(pixels: data, stride: Int(cairo_image_surface_get_stride(surface)),
                      hasAlpha: format == CAIRO_FORMAT_ARGB32, scale: m.xx, offsetX: m.x0, offsetY: m.y0,
                      clip: clip)
    }

    /// Draws, in order, the strokes that touch `cull` (canvas units), and
    /// tells Cairo which pixels changed.
    static func draw(_ strokes: [Stroke], on cr: OpaquePointer, target t: Target, cull: Rect) {
        guard !t.clip.isEmpty, !strokes.isEmpty else { return }
        let rows = t.clip.y1 - t.clip.y0
        // Threads pay off only for big areas with much ink; a damaged
        // rectangle while drawing stays on the calling thread.
        let work = strokes.count * rows
        let bands = work < 400_000 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8, rows / 64 + 1)
        if bands <= 1 {
            drawBand(strokes, t, t.clip, cull: cull)
        } else {
            DispatchQueue.concurrentPerform(iterations: bands) { i in
                var band = t.clip
                band.y0 = t.clip.y0 + rows * i / bands
                band.y1 = t.clip.y0 + rows * (i + 1) / bands
                drawBand(strokes, t, band, cull: cull)
            }
        }
        if let surface = cairo_get_target(cr) {
            cairo_surface_mark_dirty_rectangle(surface, Int32(t.clip.x0), Int32(t.clip.y0),
                                               Int32(t.clip.x1 - t.clip.x0), Int32(rows))
        }
    }

    private static func drawBand(_ strokes: [Stroke], _ t: Target, _ band: PixelRect, cull: Rect) {
        guard !band.isEmpty else { return }
        var scratch = Scratch(band: band)
        let s = t.scale
        // The band in canvas units, one pixel wider for anti-aliasing.
        let cx0 = (Double(band.x0 - 1) - t.offsetX) / s, cx1 = (Double(band.x1 + 1) - t.offsetX) / s
        let cy0 = (Double(band.y0 - 1) - t.offsetY) / s, cy1 = (Double(band.y1 + 1) - t.offsetY) / s
        let bandRect = Rect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
        // Curves are flattened finely enough that nobody can tell (0.2 px).
        let tolerance = 0.2 / s
        strokes.withUnsafeBufferPointer { all in
            for stroke in all {
                let bounds = SketchRenderer.inkBounds(of: stroke)
                guard bounds.intersects(bandRect), bounds.intersects(cull) else { continue }
                scratch.draw(stroke, t, tolerance: tolerance)
            }
        }
        scratch.release()
    }

    /// The clip as whole device pixels, or nil when it is not one rectangle
    /// on pixel boundaries (then Cairo must do the clipping).
    private static func deviceClip(_ cr: OpaquePointer, surface: OpaquePointer, matrix m: cairo_matrix_t) -> PixelRect? {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1,
              let r = list.pointee.rectangles?.pointee else { return nil }
        let x0 = r.x * m.xx + m.x0, y0 = r.y * m.yy + m.y0
        let x1 = (r.x + r.width) * m.xx + m.x0, y1 = (r.y + r.height) * m.yy + m.y0
        func whole(_ v: Double) -> Int? {
            let n = v.rounded()
            return abs(v - n) < 1e-6 ? Int(n) : nil
        }
        guard let ix0 = whole(x0), let iy0 = whole(y0), let ix1 = whole(x1), let iy1 = whole(y1) else { return nil }
        return PixelRect(x0: max(0, ix0), y0: max(0, iy0), x1: min(width, ix1), y1: min(height, iy1))
    }
}

/// One band's working memory: the coverage mask of the stroke being drawn
/// and, per row, the columns it touched (so only those are blended and
/// cleared). Reused for every stroke of the band.
private struct Scratch {
    let band: InkRasterizer.PixelRect
    let width: Int
    let mask: UnsafeMutablePointer<UInt8>
    let rowMin: UnsafeMutablePointer<Int32>
    let rowMax: UnsafeMutablePointer<Int32>
    var points: [SIMD2<Float>] = []
    var canvasPoints: [Point] = []

    init(band: InkRasterizer.PixelRect) {
        self.band = band
        width = band.x1 - band.x0
        let rows = band.y1 - band.y0
        mask = .allocate(capacity: width * rows)
        mask.initialize(repeating: 0, count: width * rows)
        rowMin = .allocate(capacity: rows)
        rowMin.initialize(repeating: Int32.max, count: rows)
        rowMax = .allocate(capacity: rows)
        rowMax.initialize(repeating: -1, count: rows)
        points.reserveCapacity(256)
        canvasPoints.reserveCapacity(256)
    }

    func release() {
        mask.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
    }

    mutating func draw(_ stroke: Stroke, _ t: InkRasterizer.Target, tolerance: Double) {
        let s = t.scale
        // Mask coordinates: device pixels relative to the band's corner.
        let ox = Float(t.offsetX - Double(band.x0)), oy = Float(t.offsetY - Double(band.y0))
        let fs = Float(s)
        var touchedY0 = Int.max, touchedY1 = -1

        if stroke.segments.isEmpty {
            let c = SIMD2<Float>(Float(stroke.start.x) * fs + ox, Float(stroke.start.y) * fs + oy)
            capsule(c, c, radius: Float(stroke.width * s), &touchedY0, &touchedY1)
        } else {
            canvasPoints.removeAll(keepingCapacity: true)
            canvasPoints.append(stroke.start)
            var p = stroke.start
            for segment in stroke.segments {
                if segment.isLine(from: p) {
                    canvasPoints.append(segment.end)
                } else {
                    StrokeFlattening.appendPoints(of: segment, from: p, tolerance: tolerance, to: &canvasPoints)
                }
                p = segment.end
            }
            points.removeAll(keepingCapacity: true)
            for q in canvasPoints { points.append(SIMD2(Float(q.x) * fs + ox, Float(q.y) * fs + oy)) }
            let r = Float(stroke.width * s / 2)
            points.withUnsafeBufferPointer { pts in
                if pts.count == 1 { capsule(pts[0], pts[0], radius: r, &touchedY0, &touchedY1) }
                // The disc around a joint comes with the piece ending there,
                // so later pieces leave out their start disc.
                for i in pts.indices.dropFirst() {
                    capsule(pts[i - 1], pts[i], radius: r, withStart: i == 1, &touchedY0, &touchedY1)
                }
            }
        }
        guard touchedY0 <= touchedY1 else { return }
        composite(stroke.color, t, rows: touchedY0...touchedY1)
    }

    /// Raises the mask to the coverage of one capsule: the segment a–b
    /// widened by `radius` (a disc when a == b). Per row, pixels deep inside
    /// are filled outright; only the rim, where coverage is partial, costs a
    /// distance each.
    private func capsule(_ a: SIMD2<Float>, _ b: SIMD2<Float>, radius: Float, withStart: Bool = true,
                         _ touchedY0: inout Int, _ touchedY1: inout Int) {
        // A pen thinner than a pixel is drawn one pixel wide at proportionally
        // less strength, which keeps its total ink right.
        let r = max(radius, 0.5)
        let strength = min(1, 2 * radius) * 255
        let full = UInt8(strength + 0.5)
        let outer = r + 0.5, inner = r - 0.5
        let rows = band.y1 - band.y0
        let chord = Chord(a, b, withStart: withStart)
        // Rows of the end disc, the start disc if drawn, and the body between.
        let bodyReach = outer * abs(chord.u.x)
        var top = min(b.y - outer, min(a.y, b.y) - bodyReach), bottom = max(b.y + outer, max(a.y, b.y) + bodyReach)
        if withStart { top = min(top, a.y - outer); bottom = max(bottom, a.y + outer) }
        let y0 = max(0, floorInt(top)), y1 = min(rows - 1, ceilInt(bottom))
        guard y0 <= y1 else { return }
        let v = b - a
        let inverse = chord.length > 0 ? 1 / (chord.length * chord.length) : 0
        let lastX = width - 1

        for y in y0...y1 {
            let yc = Float(y) + 0.5
            guard let (lo, hi) = chord.span(atY: yc, reach: outer) else { continue }
            // Pixels whose centres x + ½ lie in [lo, hi].
            let x0 = max(0, ceilInt(max(lo - 0.5, -1)))
            let x1 = min(lastX, floorInt(min(hi - 0.5, Float(width))))
            guard x0 <= x1 else { continue }
            // Centres within `inner` of the segment are fully covered.
            var f0 = x1 + 1, f1 = x1
            if inner > 0, let (ilo, ihi) = chord.span(atY: yc, reach: inner) {
                f0 = max(x0, ceilInt(max(ilo - 0.5, -1)))
                f1 = min(x1, floorInt(min(ihi - 0.5, Float(width))))
                if f0 > f1 { f0 = x1 + 1; f1 = x1 }
            }
            let row = mask + y * width
            let py = yc - a.y
            @inline(__always) func rim(_ from: Int, _ to: Int) {
                guard from <= to else { return }
                for x in from...to where row[x] != full {
                    let px = Float(x) + 0.5 - a.x
                    let t = min(max((px * v.x + py * v.y) * inverse, 0), 1)
                    let dx = px - t * v.x, dy = py - t * v.y
                    let c = min(max(outer - (dx * dx + dy * dy).squareRoot(), 0), 1) * strength
                    // Adding 1.5 · 2²³ leaves the rounded value in the low
                    // mantissa bits: a conversion without Swift's range check.
                    let c8 = UInt8(truncatingIfNeeded: (c + 12_582_912).bitPattern)
                    if c8 > row[x] { row[x] = c8 }
                }
            }
            if f0 <= f1 {
                rim(x0, f0 - 1)
                if full == 255 {
                    fill(row + f0, count: f1 - f0 + 1)
                } else {
                    for x in f0...f1 where full > row[x] { row[x] = full }
                }
                rim(f1 + 1, x1)
            } else {
                rim(x0, x1)
            }
            if Int32(x0) < rowMin[y] { rowMin[y] = Int32(x0) }
            if Int32(x1) > rowMax[y] { rowMax[y] = Int32(x1) }
            if y < touchedY0 { touchedY0 = y }
            if y > touchedY1 { touchedY1 = y }
        }
    }

    /// Sets `count` mask bytes to 255. The runs are short (a pen's width),
    /// where a call to memset costs more than the stores.
    @inline(__always) private func fill(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(p)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: UInt64.max, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count { p[i] = 255; i += 1 }
    }

    /// Blends the stroke's colour through the mask onto the surface, then
    /// clears the mask rows it used.
    private func composite(_ color: RGBA, _ t: InkRasterizer.Target, rows: ClosedRange<Int>) {
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        let alpha = byte(color.a)
        // Premultiplied source, as Cairo stores pixels.
        let sr = byte(color.r * color.a), sg = byte(color.g * color.a), sb = byte(color.b * color.a)
        let solid: UInt32 = (255 << 24) | (sr << 16) | (sg << 8) | sb
        let opaque = alpha == 255
        // Source with its alpha (or opaque black's 255 on RGB24, which Cairo ignores).
        let source: UInt32 = ((t.hasAlpha ? alpha : 255) << 24) | (sr << 16) | (sg << 8) | sb
        let sourceRB = source & 0x00FF_00FF, sourceAG = (source >> 8) & 0x00FF_00FF
        /// d · (1 − α·f) + s · f per channel, two channels per multiply; every
        /// lane stays below 255 · 255, so lanes never spill into each other.
        @inline(__always) func blend(_ d: UInt32, _ f: UInt32) -> UInt32 {
            let keep = 255 - (alpha * f + 127) / 255
            var rb = (d & 0x00FF_00FF) &* keep &+ sourceRB &* f &+ 0x0080_0080
            rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
            var ag = ((d >> 8) & 0x00FF_00FF) &* keep &+ sourceAG &* f &+ 0x0080_0080
            ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
            return t.hasAlpha ? (rb | ag) : (rb | (ag & 0x0000_FF00) | 0xFF00_0000)
        }
        for y in rows {
            let lo = Int(rowMin[y]), hi = Int(rowMax[y])
            guard lo <= hi else { continue }
            let m = mask + y * width
            let dst = UnsafeMutableRawPointer(t.pixels + (band.y0 + y) * t.stride + band.x0 * 4)
                .assumingMemoryBound(to: UInt32.self)
            var x = lo
            while x <= hi {
                // Most of a wiggly stroke's row range is empty: skip 8 at a time.
                if x + 8 <= hi + 1, UnsafeRawPointer(m + x).loadUnaligned(as: UInt64.self) == 0 {
                    x += 8
                    continue
                }
                let f = UInt32(m[x])
                if f != 0 {
                    m[x] = 0
                    dst[x] = f == 255 && opaque ? solid : blend(dst[x], f)
                }
                x += 1
            }
            rowMin[y] = Int32.max
            rowMax[y] = -1
        }
    }
}

/// Where a horizontal line crosses the set of points within some distance of
/// a segment (a capsule): one interval, since capsules are convex.
private struct Chord {
    let a: SIMD2<Float>, b: SIMD2<Float>
    /// Whether the disc around `a` belongs to this capsule.
    let withStart: Bool
    let length: Float
    /// Unit direction, and reciprocals of its components (0 when a component is 0).
    let u: SIMD2<Float>
    let invUX: Float, invUY: Float

    init(_ a: SIMD2<Float>, _ b: SIMD2<Float>, withStart: Bool = true) {
        self.a = a
        self.b = b
        self.withStart = withStart
        let v = b - a
        length = (v * v).sum().squareRoot()
        u = length > 0 ? v / length : SIMD2(1, 0)
        invUX = u.x != 0 ? 1 / u.x : 0
        invUY = u.y != 0 ? 1 / u.y : 0
    }

    @inline(__always)
    func span(atY y: Float, reach: Float) -> (Float, Float)? {
        var lo = Float.infinity, hi = -Float.infinity
        let reach2 = reach * reach
        let da = y - a.y, db = y - b.y
        if withStart, da * da <= reach2 {
            let h = (reach2 - da * da).squareRoot()
            lo = a.x - h; hi = a.x + h
        }
        if db * db <= reach2 {
            let h = (reach2 - db * db).squareRoot()
            lo = min(lo, b.x - h); hi = max(hi, b.x + h)
        }
        if length > 0 {
            if u.y != 0 {
                // Between the two lines at ±reach along the normal (−u.y, u.x)…
                let c = u.x * da
                let e1 = (c - reach) * invUY, e2 = (c + reach) * invUY
                var bl = min(e1, e2) + a.x, bh = max(e1, e2) + a.x
                // …and between the perpendiculars through a and b.
                if u.x != 0 {
                    let f1 = -u.y * da * invUX, f2 = (length - u.y * da) * invUX
                    bl = max(bl, min(f1, f2) + a.x); bh = min(bh, max(f1, f2) + a.x)
                } else {
                    let along = u.y * da
                    if along < 0 || along > length { bl = .infinity }
                }
                if bl <= bh { lo = min(lo, bl); hi = max(hi, bh) }
            } else if abs(da) <= reach {
                lo = min(lo, min(a.x, b.x)); hi = max(hi, max(a.x, b.x))
            }
        }
        return lo <= hi ? (lo, hi) : nil
    }
}

/// ⌊v⌋ and ⌈v⌉ for the small, finite values of pixel coordinates, without a
/// call into libm (which these hot loops cannot afford).
@inline(__always) private func floorInt(_ v: Float) -> Int {
    // Clamped first: a stray coordinate far off the canvas must not trap.
    let v = min(max(v, -1e9), 1e9)
    let i = Int(v)
    return Float(i) > v ? i - 1 : i
}

@inline(__always) private func ceilInt(_ v: Float) -> Int {
    let v = min(max(v, -1e9), 1e9)
    let i = Int(v)
    return Float(i) < v ? i + 1 : i
}
