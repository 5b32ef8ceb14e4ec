import CCairo
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
/// then blended over the pixels in the stroke's colour. The picture is drawn
/// tile by tile, rows of tiles in parallel; each tile draws the strokes in
/// order.
///
/// Only for what it is exact for: an image surface, scale-and-translate
/// transforms with equal scales, OVER, and a rectangular clip on whole
/// pixels. `SketchRenderer` uses Cairo for everything else.
public enum InkRasterizer {
    /// Where and how to draw, taken from a Cairo context.
    public struct Target: @unchecked Sendable {
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

    public struct PixelRect: Equatable, Sendable {
        var x0: Int, y0: Int, x1: Int, y1: Int  // half-open
        var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    }

    /// Threads for big redraws: the cores, at most 8; TEAMSKETCH_INK_THREADS
    /// overrides it (benchmarks measure one thread with it).
    public static let threadLimit: Int = {
        if let text = ProcessInfo.processInfo.environment["TEAMSKETCH_INK_THREADS"], let n = Int(text), n > 0 {
            return min(n, 64)
        }
        return min(ProcessInfo.processInfo.activeProcessorCount, 8)
    }()

    /// The target behind `cr` if the fast path draws exactly what Cairo would
    /// (up to anti-aliasing), else nil.
    public static func target(of cr: OpaquePointer) -> Target? {
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

    /// Tiles small enough that a tile's pixels and mask stay in the CPU's
    /// cache while every stroke crossing it is drawn.
    public static let tileWidth = 512, tileHeight = 64

    /// Draws, in order, the strokes that touch `cull` (canvas units), and
    /// tells Cairo which pixels changed.
    public static func draw(_ strokes: [Stroke], on cr: OpaquePointer, target t: Target, cull: Rect) {
        guard !t.clip.isEmpty, !strokes.isEmpty else { return }
        let ink = PreparedInk(strokes, t, cull: cull)
        guard !ink.strokes.isEmpty else { return }
        let clip = t.clip
        let columns = (clip.x1 - clip.x0 + tileWidth - 1) / tileWidth
        let rows = (clip.y1 - clip.y0 + tileHeight - 1) / tileHeight
        // Threads pay off only for much ink; a damaged rectangle while
        // drawing stays on the calling thread.
        let threads = ink.points.count < 20_000 || rows < 2 ? 1 : min(threadLimit, rows)
        let drawRow: @Sendable (Int) -> Void = { row in
            var scratch = Scratch(maxWidth: min(tileWidth, clip.x1 - clip.x0),
                                  maxHeight: min(tileHeight, clip.y1 - clip.y0))
            defer { scratch.release() }
            let y0 = clip.y0 + row * tileHeight
            for column in 0..<columns {
                let x0 = clip.x0 + column * tileWidth
                scratch.draw(ink, t, tile: PixelRect(x0: x0, y0: y0, x1: min(clip.x1, x0 + tileWidth),
                                                     y1: min(clip.y1, y0 + tileHeight)))
            }
        }
        if threads == 1 {
            for row in 0..<rows { drawRow(row) }
        } else {
            DispatchQueue.concurrentPerform(iterations: rows) { drawRow($0) }
        }
        if let surface = cairo_get_target(cr) {
            cairo_surface_mark_dirty_rectangle(surface, Int32(clip.x0), Int32(clip.y0),
                                               Int32(clip.x1 - clip.x0), Int32(clip.y1 - clip.y0))
        }
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
            return abs(v - n) < 1e-6 && abs(n) < 1e12 ? Int(n) : nil
        }
        guard let ix0 = whole(x0), let iy0 = whole(y0), let ix1 = whole(x1), let iy1 = whole(y1) else { return nil }
        return PixelRect(x0: max(0, ix0), y0: max(0, iy0), x1: min(width, ix1), y1: min(height, iy1))
    }
}

/// Strokes turned into device-space polylines once per draw call, shared
/// read-only by every tile and thread.
private struct PreparedInk: Sendable {
    public struct Item {
        var first: Int, count: Int
        /// Pen radius in pixels (a dot's radius is its width).
        var radius: Float
        var color: RGBA
        /// Device pixels the stroke can touch, anti-aliasing included.
        var x0: Float, y0: Float, x1: Float, y1: Float
    }

    public var strokes: [Item] = []
    public var points: [SIMD2<Float>] = []

    public init(_ all: [Stroke], _ t: InkRasterizer.Target, cull: Rect) {
        let s = t.scale, fs = Float(s)
        let origin = SIMD2(Float(t.offsetX), Float(t.offsetY))
        // Curves are flattened finely enough that nobody can tell (0.2 px).
        let tolerance = 0.2 / s
        let clip = t.clip
        let visible = Rect(x: (Double(clip.x0 - 1) - t.offsetX) / s, y: (Double(clip.y0 - 1) - t.offsetY) / s,
                           width: Double(clip.x1 - clip.x0 + 2) / s, height: Double(clip.y1 - clip.y0 + 2) / s)
        var canvas: [Point] = []
        canvas.reserveCapacity(256)
        strokes.reserveCapacity(all.count)
        all.withUnsafeBufferPointer { list in
            for stroke in list {
                let bounds = SketchRenderer.inkBounds(of: stroke)
                guard bounds.intersects(visible), bounds.intersects(cull) else { continue }
                canvas.removeAll(keepingCapacity: true)
                canvas.append(stroke.start)
                var p = stroke.start
                for segment in stroke.segments {
                    if segment.isLine(from: p) {
                        canvas.append(segment.end)
                    } else {
                        StrokeFlattening.appendPoints(of: segment, from: p, tolerance: tolerance, to: &canvas)
                    }
                    p = segment.end
                }
                let first = points.count
                appendSimplified(canvas, scale: fs, origin: origin)
                let radius = Float(stroke.segments.isEmpty ? stroke.width * s : stroke.width * s / 2)
                let b0 = SIMD2(Float(bounds.x), Float(bounds.y)) * fs + origin
                let b1 = SIMD2(Float(bounds.maxX), Float(bounds.maxY)) * fs + origin
                strokes.append(Item(first: first, count: points.count - first, radius: radius, color: stroke.color,
                                    x0: b0.x - 1, y0: b0.y - 1, x1: b1.x + 1, y1: b1.y + 1))
            }
        }
    }
}

extension PreparedInk {
    /// Farthest a dropped point may lie from the polyline that replaces it:
    /// a tenth of a pixel, as fine as Cairo's own curve tolerance.
    public static let simplifyTolerance: Float = 0.1

    /// Appends the polyline in device pixels, leaving out points that lie
    /// within `simplifyTolerance` of the straight line past them. Every piece
    /// costs its rows once, so fewer, longer pieces draw the same ink faster.
    public mutating func appendSimplified(_ canvas: [Point], scale: Float, origin: SIMD2<Float>) {
        let n = canvas.count
        @inline(__always) func device(_ i: Int) -> SIMD2<Float> {
            SIMD2(Float(canvas[i].x), Float(canvas[i].y)) * scale + origin
        }
        var anchor = device(0)
        points.append(anchor)
        guard n > 1 else { return }
        let tolerance2 = Self.simplifyTolerance * Self.simplifyTolerance
        var skipped: [SIMD2<Float>] = []
        skipped.reserveCapacity(8)
        var previous = device(1)
        var i = 2
        while i < n {
            let candidate = device(i)
            // Can `previous` (and all points skipped before it) go, with the
            // line running from the anchor straight to `candidate`?
            var fits = skipped.count < 8 && distanceSquared(previous, anchor, candidate) <= tolerance2
            if fits {
                for q in skipped where distanceSquared(q, anchor, candidate) > tolerance2 {
                    fits = false
                    break
                }
            }
            if fits {
                skipped.append(previous)
            } else {
                points.append(previous)
                anchor = previous
                skipped.removeAll(keepingCapacity: true)
            }
            previous = candidate
            i += 1
        }
        points.append(previous)
    }
}

/// Squared distance from p to the segment a–b.
@inline(__always) private func distanceSquared(_ p: SIMD2<Float>, _ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
    let v = b - a, w = p - a
    let l2 = (v * v).sum()
    let t = l2 > 0 ? min(max((w * v).sum() / l2, 0), 1) : 0
    let d = w - t * v
    return (d * d).sum()
}

/// One thread's working memory: the coverage mask of the stroke being drawn
/// in the current tile and, per row, the columns it touched (so only those
/// are blended and cleared). Reused for every stroke and tile.
private struct Scratch {
    /// The tile being drawn; the mask covers it, row by row.
    public var band = InkRasterizer.PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    public var width = 0
    public let mask: UnsafeMutablePointer<UInt8>
    public let rowMin: UnsafeMutablePointer<Int32>
    public let rowMax: UnsafeMutablePointer<Int32>
    /// The current stroke's pieces and the rim runs they left to shade.
    public var pieces: [Piece] = []
    public var rims: [RimRun] = []

    public struct Piece {
        var a: SIMD2<Float>, v: SIMD2<Float>
        var inverse: Float, outer: Float, strength: Float
        var full: UInt8
    }

    public struct RimRun {
        var y: Int32, from: Int32, to: Int32, piece: Int32
    }

    public init(maxWidth: Int, maxHeight: Int) {
        pieces.reserveCapacity(512)
        rims.reserveCapacity(8192)
        mask = .allocate(capacity: maxWidth * maxHeight)
        mask.initialize(repeating: 0, count: maxWidth * maxHeight)
        rowMin = .allocate(capacity: maxHeight)
        rowMin.initialize(repeating: Int32.max, count: maxHeight)
        rowMax = .allocate(capacity: maxHeight)
        rowMax.initialize(repeating: -1, count: maxHeight)
    }

    public func release() {
        mask.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
    }

    /// Every prepared stroke that crosses `tile`, in order.
    public mutating func draw(_ ink: PreparedInk, _ t: InkRasterizer.Target, tile: InkRasterizer.PixelRect) {
        band = tile
        width = tile.x1 - tile.x0
        let tx0 = Float(tile.x0), ty0 = Float(tile.y0), tx1 = Float(tile.x1), ty1 = Float(tile.y1)
        let origin = SIMD2(tx0, ty0)
        ink.points.withUnsafeBufferPointer { points in
            ink.strokes.withUnsafeBufferPointer { items in
                for item in items where item.x1 >= tx0 && item.x0 <= tx1 && item.y1 >= ty0 && item.y0 <= ty1 {
                    var touchedY0 = Int.max, touchedY1 = -1
                    let pts = UnsafeBufferPointer(rebasing: points[item.first..<item.first + item.count])
                    let reach = max(item.radius, 0.5) + 1
                    if pts.count == 1 {
                        capsule(pts[0] - origin, pts[0] - origin, radius: item.radius, &touchedY0, &touchedY1)
                    }
                    var i = 1
                    while i < pts.count {
                        let a = pts[i - 1], b = pts[i]
                        // Pieces that miss the tile cost only this test.
                        if max(a.x, b.x) + reach >= tx0 && min(a.x, b.x) - reach <= tx1
                            && max(a.y, b.y) + reach >= ty0 && min(a.y, b.y) - reach <= ty1 {
                            // The disc around a joint comes with the piece ending
                            // there, so later pieces leave out their start disc.
                            capsule(a - origin, b - origin, radius: item.radius, withStart: i == 1,
                                    &touchedY0, &touchedY1)
                        }
                        i += 1
                    }
                    shadeRims()
                    if touchedY0 <= touchedY1 { composite(item.color, t, rows: touchedY0...touchedY1) }
                }
            }
        }
    }

    /// Raises the mask to the coverage of one capsule: the segment a–b
    /// widened by `radius` (a disc when a == b). Per row, pixels deep inside
    /// are filled outright; only the rim, where coverage is partial, costs a
    /// distance each.
    private mutating func capsule(_ a: SIMD2<Float>, _ b: SIMD2<Float>, radius: Float, withStart: Bool = true,
                         _ touchedY0: inout Int, _ touchedY1: inout Int) {
        // A pen thinner than a pixel is drawn one pixel wide at proportionally
        // less strength, which keeps its total ink right.
        let r = max(radius, 0.5)
        let strength = min(1, 2 * radius) * 255
        let full = UInt8(strength + 0.5)
        let outer = r + 0.5, inner = r - 0.5
        let rows = band.y1 - band.y0
        let chord = Chord(a, b, withStart: withStart, outer: outer, inner: inner)
        // Rows of the end disc, the start disc if drawn, and the body between.
        let v = b - a
        let lengthSquared = (v * v).sum()
        let bodyReach = lengthSquared > 0 ? outer * abs(v.x) / lengthSquared.squareRoot() : 0
        var top = min(b.y - outer, min(a.y, b.y) - bodyReach), bottom = max(b.y + outer, max(a.y, b.y) + bodyReach)
        if withStart { top = min(top, a.y - outer); bottom = max(bottom, a.y + outer) }
        let y0 = max(0, floorInt(top)), y1 = min(rows - 1, ceilInt(bottom))
        guard y0 <= y1 else { return }
        let inverse = lengthSquared > 0 ? 1 / lengthSquared : 0
        let lastX = width - 1

        for y in y0...y1 {
            let yc = Float(y) + 0.5
            let spans = chord.spans(atY: yc)
            let lo = spans[0], hi = spans[1]
            guard lo <= hi else { continue }
            // Pixels whose centres x + ½ lie in [lo, hi].
            let x0 = max(0, ceilInt(max(lo - 0.5, -1)))
            let x1 = min(lastX, floorInt(min(hi - 0.5, Float(width))))
            guard x0 <= x1 else { continue }
            // Centres within `inner` of the segment are fully covered.
            var f0 = x1 + 1, f1 = x1
            if spans[2] <= spans[3] {
                f0 = max(x0, ceilInt(max(spans[2] - 0.5, -1)))
                f1 = min(x1, floorInt(min(spans[3] - 0.5, Float(width))))
                if f0 > f1 { f0 = x1 + 1; f1 = x1 }
            }
            let row = mask + y * width
            let piece = Int32(pieces.count)
            if f0 <= f1 {
                if x0 < f0 { rims.append(RimRun(y: Int32(y), from: Int32(x0), to: Int32(f0 - 1), piece: piece)) }
                if full == 255 {
                    fill(row + f0, count: f1 - f0 + 1)
                } else {
                    for x in f0...f1 where full > row[x] { row[x] = full }
                }
                if f1 < x1 { rims.append(RimRun(y: Int32(y), from: Int32(f1 + 1), to: Int32(x1), piece: piece)) }
            } else {
                rims.append(RimRun(y: Int32(y), from: Int32(x0), to: Int32(x1), piece: piece))
            }
            if Int32(x0) < rowMin[y] { rowMin[y] = Int32(x0) }
            if Int32(x1) > rowMax[y] { rowMax[y] = Int32(x1) }
            if y < touchedY0 { touchedY0 = y }
            if y > touchedY1 { touchedY1 = y }
        }
        pieces.append(Piece(a: a, v: v, inverse: inverse, outer: outer, strength: strength, full: full))
    }

    /// Partial coverage along the recorded rims. Runs after every piece of
    /// the stroke has filled its inside, so rim pixels that another piece
    /// already covers fully are skipped without a distance.
    private mutating func shadeRims() {
        rims.withUnsafeBufferPointer { runs in
            pieces.withUnsafeBufferPointer { pieces in
                for run in runs {
                    let p = pieces[Int(run.piece)]
                    let row = mask + Int(run.y) * width
                    let py = Float(run.y) + 0.5 - p.a.y
                    for x in Int(run.from)...Int(run.to) where row[x] != p.full {
                        let px = Float(x) + 0.5 - p.a.x
                        let t = min(max((px * p.v.x + py * p.v.y) * p.inverse, 0), 1)
                        let dx = px - t * p.v.x, dy = py - t * p.v.y
                        let c = min(max(p.outer - (dx * dx + dy * dy).squareRoot(), 0), 1) * p.strength
                        // Adding 1.5 · 2²³ leaves the rounded value in the low
                        // mantissa bits: a conversion without Swift's range check.
                        let c8 = UInt8(truncatingIfNeeded: (c + 12_582_912).bitPattern)
                        if c8 > row[x] { row[x] = c8 }
                    }
                }
            }
        }
        rims.removeAll(keepingCapacity: true)
        pieces.removeAll(keepingCapacity: true)
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
        let solid8 = SIMD8<UInt32>(repeating: solid)
        let alpha8 = SIMD8<UInt32>(repeating: alpha)
        let rb8 = SIMD8<UInt32>(repeating: sourceRB), ag8 = SIMD8<UInt32>(repeating: sourceAG)
        let lanes = SIMD8<UInt32>(repeating: 0x00FF_00FF), half = SIMD8<UInt32>(repeating: 0x0080_0080)
        let alphaBits = SIMD8<UInt32>(repeating: t.hasAlpha ? 0 : 0xFF00_0000)
        let greenLane = SIMD8<UInt32>(repeating: 0x0000_FF00)
        for y in rows {
            let lo = Int(rowMin[y]), hi = Int(rowMax[y])
            guard lo <= hi else { continue }
            let m = mask + y * width
            let dst = UnsafeMutableRawPointer(t.pixels + (band.y0 + y) * t.stride + band.x0 * 4)
            var x = lo
            // Eight pixels at a time, without branches per pixel: the same
            // blend as `blend(_:_:)`, lane by lane.
            while x + 8 <= hi + 1 {
                let bytes = UnsafeMutableRawPointer(m + x)
                let word = bytes.loadUnaligned(as: UInt64.self)
                if word != 0 {
                    bytes.storeBytes(of: 0, as: UInt64.self)
                    let out = dst + x * 4
                    if word == UInt64.max && opaque {
                        out.storeBytes(of: solid8, as: SIMD8<UInt32>.self)
                    } else {
                        let f = SIMD8<UInt32>(truncatingIfNeeded: unsafeBitCast(word, to: SIMD8<UInt8>.self))
                        let d = out.loadUnaligned(as: SIMD8<UInt32>.self)
                        // x / 255, rounded, for x < 2¹⁶, without a (per-lane) division.
                        let af = alpha8 &* f &+ 128
                        let keep = 255 &- ((af &+ (af &>> 8)) &>> 8)
                        var rb = (d & lanes) &* keep &+ rb8 &* f &+ half
                        rb = ((rb &+ ((rb &>> 8) & lanes)) &>> 8) & lanes
                        var ag = ((d &>> 8) & lanes) &* keep &+ ag8 &* f &+ half
                        ag = (ag &+ ((ag &>> 8) & lanes)) & ~lanes
                        let blended = t.hasAlpha ? (rb | ag) : (rb | (ag & greenLane) | alphaBits)
                        out.storeBytes(of: blended, as: SIMD8<UInt32>.self)
                    }
                }
                x += 8
            }
            let words = dst.assumingMemoryBound(to: UInt32.self)
            while x <= hi {
                let f = UInt32(m[x])
                if f != 0 {
                    m[x] = 0
                    words[x] = f == 255 && opaque ? solid : blend(words[x], f)
                }
                x += 1
            }
            rowMin[y] = Int32.max
            rowMax[y] = -1
        }
    }
}

/// Where a row crosses a capsule — the points within some distance of a
/// segment — at two distances at once: `outer`, where coverage starts, and
/// `inner`, inside which it is full. Capsules are convex, so each crossing
/// is one interval. Everything that does not depend on the row is worked
/// out once per piece, leaving a few multiply-adds (and a square root near
/// the end discs) per row.
private struct Chord {
    public let a: SIMD2<Float>, b: SIMD2<Float>
    public let withStart: Bool
    public let outer2: Float, inner2: Float, innerPositive: Bool
    public let hasBody: Bool, horizontal: Bool, vertical: Bool
    /// Body centre line x = a.x + slope · (y − a.y) and its half-widths.
    public let slope: Float, halfOuter: Float, halfInner: Float
    /// Perpendiculars through a and b: x = a.x + perpSlope · (y − a.y) + offset.
    public let perpSlope: Float, perpLow: Float, perpHigh: Float
    public let outer: Float, inner: Float
    public let minX: Float, maxX: Float, minY: Float, maxY: Float

    public init(_ a: SIMD2<Float>, _ b: SIMD2<Float>, withStart: Bool, outer: Float, inner: Float) {
        self.a = a
        self.b = b
        self.withStart = withStart
        self.outer = outer
        self.inner = inner
        outer2 = outer * outer
        inner2 = inner * inner
        innerPositive = inner > 0
        let v = b - a
        let length = (v * v).sum().squareRoot()
        let u = length > 0 ? v / length : SIMD2<Float>(1, 0)
        hasBody = length > 0
        // Nearly level or upright pieces are treated as exactly so: the
        // difference is far below a pixel (1e-4 of the pen's radius).
        horizontal = abs(u.y) < 1e-4
        vertical = abs(u.x) < 1e-4
        slope = horizontal ? 0 : u.x / u.y
        halfOuter = horizontal ? 0 : outer / abs(u.y)
        halfInner = horizontal ? 0 : inner / abs(u.y)
        perpSlope = vertical || horizontal ? 0 : -u.y / u.x
        let w = vertical || horizontal ? 0 : length / u.x
        perpLow = min(0, w)
        perpHigh = max(0, w)
        minX = min(a.x, b.x); maxX = max(a.x, b.x); minY = min(a.y, b.y); maxY = max(a.y, b.y)
    }

    /// (outer lo, outer hi, inner lo, inner hi) on the row at `y`; lo > hi
    /// when the row misses. Straight-line code: it runs for every row of
    /// every piece.
    @inline(__always)
    public func spans(atY y: Float) -> SIMD4<Float> {
        var oLo = Float.infinity, oHi = -Float.infinity, iLo = Float.infinity, iHi = -Float.infinity
        let db = y - b.y, db2 = db * db
        if db2 <= outer2 {
            let h = (outer2 - db2).squareRoot()
            oLo = b.x - h; oHi = b.x + h
            if innerPositive && db2 <= inner2 {
                let k = (inner2 - db2).squareRoot()
                iLo = b.x - k; iHi = b.x + k
            }
        }
        let da = y - a.y
        if withStart {
            let da2 = da * da
            if da2 <= outer2 {
                let h = (outer2 - da2).squareRoot()
                oLo = min(oLo, a.x - h); oHi = max(oHi, a.x + h)
                if innerPositive && da2 <= inner2 {
                    let k = (inner2 - da2).squareRoot()
                    iLo = min(iLo, a.x - k); iHi = max(iHi, a.x + k)
                }
            }
        }
        if hasBody {
            if horizontal {
                if abs(da) <= outer { oLo = min(oLo, minX); oHi = max(oHi, maxX) }
                if innerPositive && abs(da) <= inner { iLo = min(iLo, minX); iHi = max(iHi, maxX) }
            } else if !vertical || (y >= minY && y <= maxY) {
                let centre = a.x + slope * da
                var low = -Float.infinity, high = Float.infinity
                if !vertical {
                    let p = a.x + perpSlope * da
                    low = p + perpLow
                    high = p + perpHigh
                }
                let ol = max(centre - halfOuter, low), oh = min(centre + halfOuter, high)
                if ol <= oh { oLo = min(oLo, ol); oHi = max(oHi, oh) }
                let il = max(centre - halfInner, low), ih = min(centre + halfInner, high)
                if innerPositive && il <= ih { iLo = min(iLo, il); iHi = max(iHi, ih) }
            }
        }
        return SIMD4(oLo, oHi, iLo, iHi)
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
