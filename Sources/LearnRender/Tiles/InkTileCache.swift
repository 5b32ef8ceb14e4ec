import CCairo
import Foundation
import Dispatch
import LearnModel

/// The canvas's finished ink as Cairo image tiles (`TileKey`). Which tiles
/// exist, and which ones a change damages, is decided by the caller (the
/// canvas engine); this type only holds the pixels, draws into them and
/// paints them. Used on one thread (the UI's); a batch of tiles is rendered
/// on all cores.
public final class InkTileCache {
    private var tiles: [TileKey: CairoImage] = [:]

    public init() {}

    deinit { tiles.removeAll() }

    public var keys: Set<TileKey> { Set(tiles.keys) }
    public var count: Int { tiles.count }
    /// Memory the pixels take.
    public var byteCount: Int { tiles.count * TileKey.size * TileKey.size * 4 }

    public func image(_ key: TileKey) -> CairoImage? { tiles[key] }

    public func drop(_ keys: [TileKey]) {
        for k in keys { tiles[k] = nil }
    }

    public func removeAll() { tiles.removeAll() }

    /// Draws paper, guides and `strokes` (in order) into each tile, making the
    /// tiles that do not exist yet; with `within` (canvas units), only the
    /// tiles' pixels inside it. Tiles are independent, so they are drawn in
    /// parallel; each stroke's bounds are worked out once for all tiles.
    public func render(_ keys: [TileKey], within: Rect? = nil, meta: SketchMeta, strokes: [Stroke]) {
        guard !keys.isEmpty else { return }
        var targets: [(TileKey, CairoImage)] = []
        targets.reserveCapacity(keys.count)
        for key in keys {
            if let existing = tiles[key] {
                targets.append((key, existing))
            } else if let made = try? CairoImage(width: TileKey.size, height: TileKey.size) {
                tiles[key] = made
                targets.append((key, made))
            }
        }
        let index = StrokeBoundsIndex(strokes)
        let jobs = TileJobs(targets: targets, within: within, meta: meta, strokes: strokes, index: index)
        if InkRasterizer.threadLimit <= 1 || targets.count == 1 {
            for i in targets.indices { jobs.run(i) }
        } else {
            // Dispatch hands tiles to whichever core is free, so a busy
            // corner (or a core taken by another process) holds nobody up.
            DispatchQueue.concurrentPerform(iterations: targets.count) { jobs.run($0) }
        }
    }

    /// Re-draws `region` (canvas units) of the given tiles from `strokes`:
    /// what an erased stroke leaves behind.
    public func redraw(_ region: Rect, in keys: [TileKey], meta: SketchMeta, strokes: [Stroke]) {
        for key in keys {
            guard let image = tiles[key] else { continue }
            let cr = cairo_create(image.surface)!
            defer { cairo_destroy(cr) }
            // Whole pixels, so the fast ink path applies.
            guard Self.clip(cr, key, to: region) else { continue }
            Self.place(key, cr)
            SketchRenderer.draw(SketchDocumentView(meta: meta), strokes: strokes, in: cr)
        }
    }

    /// Strokes `ink` into the given tiles with Cairo: a few pieces, as the
    /// pen moves, cost far less than redrawing the tiles.
    public func draw(_ ink: InkRun, into keys: [TileKey]) {
        for key in keys {
            guard let image = tiles[key] else { continue }
            let cr = cairo_create(image.surface)!
            Self.place(key, cr)
            if ink.isDot {
                SketchRenderer.draw(Stroke(author: "", color: ink.color, width: ink.width, start: ink.start,
                                           segments: [], startedAt: .distantPast, endedAt: .distantPast), in: cr)
            }
            var from = ink.start
            for s in ink.segments {
                SketchRenderer.drawSegment(s, from: from, color: ink.color, width: ink.width, in: cr)
                from = s.end
            }
            cairo_destroy(cr)
        }
    }

    /// Paints tiles onto `cr`, whose user space is widget units. `origin` is
    /// the widget position of canvas (0, 0) and `scale` widget units per
    /// canvas unit; a tile of another scale is stretched to fit (while a zoom
    /// is in progress). Tiles are filled without anti-aliased edges and
    /// their borders pad outwards, so neighbours meet without a seam.
    public func paint(_ keys: [TileKey], on cr: OpaquePointer, origin: Point, scale: Double) {
        cairo_save(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        for key in keys {
            guard let image = tiles[key] else { continue }
            let ratio = scale / key.scale
            cairo_save(cr)
            cairo_translate(cr, origin.x + Double(key.pixelX) * ratio, origin.y + Double(key.pixelY) * ratio)
            cairo_scale(cr, ratio, ratio)
            cairo_set_source_surface(cr, image.surface, 0, 0)
            let pattern = cairo_get_source(cr)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            // A tile of the device's own scale maps pixel to pixel; filtering would only cost time.
            var device = 1.0, dy = 1.0
            cairo_surface_get_device_scale(cairo_get_target(cr), &device, &dy)
            cairo_pattern_set_filter(pattern, abs(ratio * device - 1) < 1e-6 ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, Double(TileKey.size), Double(TileKey.size))
            cairo_fill(cr)
            cairo_restore(cr)
        }
        cairo_restore(cr)
    }

    /// Clips `cr` (on the tile, before `place`) to the whole pixels that
    /// `region` (canvas units) touches; false when none.
    static func clip(_ cr: OpaquePointer, _ key: TileKey, to region: Rect) -> Bool {
        let s = key.scale
        let x0 = max(0, Int((region.x * s).rounded(.down)) - key.pixelX)
        let y0 = max(0, Int((region.y * s).rounded(.down)) - key.pixelY)
        let x1 = min(TileKey.size, Int((region.maxX * s).rounded(.up)) - key.pixelX)
        let y1 = min(TileKey.size, Int((region.maxY * s).rounded(.up)) - key.pixelY)
        guard x0 < x1, y0 < y1 else { return false }
        cairo_rectangle(cr, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
        cairo_clip(cr)
        return true
    }

    /// Canvas units onto the tile's pixels.
    static func place(_ key: TileKey, _ cr: OpaquePointer) {
        cairo_translate(cr, -Double(key.pixelX), -Double(key.pixelY))
        cairo_scale(cr, key.scale, key.scale)
    }
}

/// Paper settings without the op log, for drawing a given list of strokes.
struct SketchDocumentView {
    var meta: SketchMeta
}

extension SketchRenderer {
    /// Background and `strokes` within Cairo's current clip.
    static func draw(_ paper: SketchDocumentView, strokes: [Stroke], in cr: OpaquePointer) {
        let area = currentClip(cr)
        drawBackground(meta: paper.meta, in: cr)
        draw(strokes, in: cr, clip: area)
    }
}

/// Each stroke's ink bounds, computed once per batch: culling a stroke for
/// one tile is then four comparisons instead of a walk over its segments.
struct StrokeBoundsIndex: @unchecked Sendable {
    let bounds: [Rect]

    init(_ strokes: [Stroke]) {
        bounds = strokes.map(SketchRenderer.inkBounds(of:))
    }

    func strokes(_ all: [Stroke], touching r: Rect) -> [Stroke] {
        var out: [Stroke] = []
        for i in bounds.indices where bounds[i].intersects(r) { out.append(all[i]) }
        return out
    }
}

/// The work of one `render` call, shared read-only by the threads.
private struct TileJobs: @unchecked Sendable {
    let targets: [(TileKey, CairoImage)]
    let within: Rect?
    let meta: SketchMeta
    let strokes: [Stroke]
    let index: StrokeBoundsIndex

    func run(_ i: Int) {
        let (key, image) = targets[i]
        let cr = cairo_create(image.surface)!
        defer { cairo_destroy(cr) }
        var area = key.canvasRect
        if let within {
            guard InkTileCache.clip(cr, key, to: within) else { return }
            let x0 = max(area.x, within.x), y0 = max(area.y, within.y)
            area = Rect(x: x0, y: y0, width: min(area.maxX, within.maxX) - x0, height: min(area.maxY, within.maxY) - y0)
        } else {
            cairo_rectangle(cr, 0, 0, Double(TileKey.size), Double(TileKey.size))
            cairo_clip(cr)
        }
        InkTileCache.place(key, cr)
        // Pixels beyond the canvas's edge (the last row and column) are
        // never shown: the view clips to the sheet.
        let touching = index.strokes(strokes, touching: area.insetBy(-1 / key.scale))
        SketchRenderer.draw(SketchDocumentView(meta: meta), strokes: touching, in: cr)
        cairo_surface_flush(image.surface)
    }
}
