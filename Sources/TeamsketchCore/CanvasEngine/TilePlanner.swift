import LearnModel
import LearnRender

/// Which ink tiles the canvas keeps, renders and paints — decided from the
/// viewport alone, so it is tested without a window or a pixel.
///
/// Two levels of tiles: the *current* level at the scale the canvas was
/// last settled at (crisp, covering the visible part plus a margin), and
/// the *overview*, the whole sheet at the scale that fits the widget (the
/// minimap's source, and what shows where the current level has no tile yet
/// while a zoom is in progress). At zoom 1 they are the same tiles.
public struct TilePlanner: Sendable {
    /// Tiles that exist in the cache (every effect that changes it is emitted here).
    public private(set) var kept: Set<TileKey> = []
    /// Device pixels per canvas unit of the current level; nil before the first frame.
    public private(set) var scale: Double?
    /// Where the current level's grid starts (device pixels): at the top
    /// left of the view it was settled for, so the visible area takes the
    /// fewest tiles.
    public private(set) var origin = (x: 0, y: 0)
    /// Device pixels per canvas unit of the overview level.
    public private(set) var overviewScale: Double?
    private var idleScheduled = false
    /// Tiles drawn only inside the given canvas rectangle (the view they
    /// were settled for); they are finished when idle or when more of them
    /// comes into view.
    private var partial: [TileKey: Rect] = [:]

    /// Tiles kept around the visible ones, in tiles, so a short pan shows
    /// crisp ink at once; they are drawn when the app is idle.
    public static let margin = 1
    /// Tiles drawn per idle turn, so input is never held up for long.
    public static let idleBatch = 6

    public init() {}

    public struct Frame: Sendable {
        public var viewport: Viewport
        public var deviceScale: Double

        public init(viewport: Viewport, deviceScale: Double) {
            self.viewport = viewport
            self.deviceScale = deviceScale
        }

        /// Device pixels per canvas unit the view shows now.
        public var wantedScale: Double { viewport.scale * deviceScale }
        public var fitScale: Double { viewport.fitScale * deviceScale }
        var canvas: Rect { Rect(x: 0, y: 0, width: viewport.canvasWidth, height: viewport.canvasHeight) }

        func keys(_ rect: Rect, scale: Double, origin: (x: Int, y: Int) = (0, 0)) -> [TileKey] {
            TileKey.covering(rect, scale: scale, originX: origin.x, originY: origin.y,
                             canvasWidth: viewport.canvasWidth, canvasHeight: viewport.canvasHeight)
        }

        /// Device pixel of the visible area's top-left corner at `scale`.
        func visibleCorner(scale: Double) -> (x: Int, y: Int) {
            let r = viewport.visibleCanvasRect
            return (Int((r.x * scale).rounded(.down)), Int((r.y * scale).rounded(.down)))
        }

        /// The visible canvas grown by `tiles` tiles of `scale` on every side.
        func around(tiles: Int, scale: Double) -> Rect {
            let r = viewport.visibleCanvasRect, d = Double(tiles * TileKey.size) / scale
            return Rect(x: r.x - d, y: r.y - d, width: r.width + 2 * d, height: r.height + 2 * d)
        }
    }

    /// True when the current level is the scale shown (no zoom in progress).
    public func isSettled(_ f: Frame) -> Bool { scale.map { same($0, f.wantedScale) } ?? false }

    /// Tiles of the current level the viewport shows.
    public func visible(_ f: Frame) -> [TileKey] {
        guard let scale else { return [] }
        return f.keys(f.viewport.visibleCanvasRect, scale: scale, origin: origin)
    }

    /// Before a frame is painted: the first frame picks its scale; a settled
    /// view draws the visible tiles it lacks (after a pan) at once, leaves
    /// the margin and the overview to idle time, and forgets tiles far away.
    public mutating func frame(_ f: Frame) -> [CanvasEffect] {
        if scale == nil {
            scale = f.wantedScale
            overviewScale = f.fitScale
        }
        guard let scale, isSettled(f) else { return [] }
        var out: [CanvasEffect] = []
        let near = f.around(tiles: Self.margin + 1, scale: scale)
        let far = kept.filter { isCurrent($0) && !$0.canvasRect.intersects(near) && !isOverview($0) }
        if !far.isEmpty { out.append(drop(Array(far))) }
        let seen = f.viewport.visibleCanvasRect
        let missing = visible(f).filter { !kept.contains($0) || !isDrawn($0, within: seen) }
        if !missing.isEmpty { out.append(render(missing)) }
        if !backlog(f).isEmpty && !idleScheduled {
            idleScheduled = true
            out.append(.scheduleIdle)
        }
        return out
    }

    /// After a zoom or resize has rested: the current level moves to the
    /// scale shown and the visible tiles are drawn at once; every tile of
    /// another scale goes (the overview stays unless the widget's size changed).
    public mutating func settle(_ f: Frame) -> [CanvasEffect] {
        guard scale != nil else { return frame(f) }
        let fit = f.fitScale
        guard !isSettled(f) || !same(overviewScale ?? 0, fit) else { return [] }
        let wanted = f.wantedScale
        scale = wanted
        // The overview's grid starts at the canvas's corner; the one shown
        // zoomed starts at the view's.
        origin = same(wanted, fit) ? (0, 0) : f.visibleCorner(scale: wanted)
        overviewScale = fit
        let stale = kept.filter { !isCurrent($0) && !same($0.scale, fit) }
        var out: [CanvasEffect] = stale.isEmpty ? [] : [drop(Array(stale))]
        // Only what is seen is drawn now: the parts of edge tiles beyond the
        // view wait for idle time with the margin.
        let seen = f.viewport.visibleCanvasRect
        let missing = visible(f).filter { !kept.contains($0) }
        if !missing.isEmpty { out.append(render(missing, within: seen)) }
        out += frame(f)
        return out
    }

    /// One idle turn: a few tiles: the unseen parts of edge tiles, the margin, the overview.
    public mutating func idle(_ f: Frame) -> [CanvasEffect] {
        idleScheduled = false
        guard isSettled(f) else { return [] }
        let todo = backlog(f)
        guard !todo.isEmpty else { return [] }
        var out = [render(Array(todo.prefix(Self.idleBatch)))]
        if todo.count > Self.idleBatch {
            idleScheduled = true
            out.append(.scheduleIdle)
        }
        return out
    }

    /// Tiles (or parts of them) not drawn yet: edge tiles, margin, overview.
    public func backlog(_ f: Frame) -> [TileKey] {
        guard let scale, isSettled(f) else { return [] }
        var todo = partial.keys.filter { kept.contains($0) }.sorted(by: Self.order)
        todo += f.keys(f.around(tiles: Self.margin, scale: scale), scale: scale, origin: origin)
            .filter { !kept.contains($0) }
        if let overviewScale, !same(overviewScale, scale) {
            todo += f.keys(f.canvas, scale: overviewScale).filter { !kept.contains($0) }
        }
        return todo
    }

    /// Kept tiles a change inside `rect` (canvas units) touches.
    public func damaged(by rect: Rect) -> [TileKey] {
        guard !rect.isNull else { return [] }
        return kept.filter { $0.canvasRect.intersects(rect) }.sorted(by: Self.order)
    }

    /// Everything goes (a new document); the next frame draws what is seen.
    public mutating func forgetAll() -> [CanvasEffect] {
        guard !kept.isEmpty else { return [] }
        return [drop(Array(kept))]
    }

    /// Tiles to paint, bottom first: the overview under the current level
    /// wherever the current level lacks a visible tile (during a zoom).
    public func paintOrder(_ f: Frame) -> [TileKey] {
        guard let scale else { return [] }
        let seen = f.viewport.visibleCanvasRect
        let current = f.keys(seen, scale: scale, origin: origin)
        var out: [TileKey] = []
        if let overviewScale, !same(overviewScale, scale), current.contains(where: { !kept.contains($0) }) {
            out = f.keys(seen, scale: overviewScale).filter { kept.contains($0) }
        }
        return out + current.filter { kept.contains($0) }
    }

    /// Overview tiles (the minimap's source).
    public func overview(_ f: Frame) -> [TileKey] {
        guard let overviewScale else { return [] }
        return f.keys(f.canvas, scale: overviewScale).filter { kept.contains($0) }
    }

    private func isOverview(_ k: TileKey) -> Bool {
        overviewScale.map { same(k.scale, $0) && k.originX == 0 && k.originY == 0 } ?? false
    }

    private func isCurrent(_ k: TileKey) -> Bool {
        scale.map { same(k.scale, $0) && k.originX == origin.x && k.originY == origin.y } ?? false
    }

    private mutating func render(_ keys: [TileKey], within clip: Rect? = nil) -> CanvasEffect {
        kept.formUnion(keys)
        for k in keys {
            if let clip, !Self.covers(clip, k.canvasRect, scale: k.scale) { partial[k] = clip } else { partial[k] = nil }
        }
        return .render(keys, within: clip)
    }

    private mutating func drop(_ keys: [TileKey]) -> CanvasEffect {
        let sorted = keys.sorted(by: Self.order)
        kept.subtract(sorted)
        for k in sorted { partial[k] = nil }
        return .drop(sorted)
    }

    /// Whether the part of tile `k` inside `area` has been drawn.
    private func isDrawn(_ k: TileKey, within area: Rect) -> Bool {
        guard let clip = partial[k] else { return true }
        guard let part = Self.intersection(k.canvasRect, area) else { return true }
        return Self.covers(clip, part, scale: k.scale)
    }

    /// `outer` holds `inner`, give or take a pixel (drawing rounds outwards to whole pixels).
    static func covers(_ outer: Rect, _ inner: Rect, scale: Double) -> Bool {
        let e = 1 / scale
        return outer.x <= inner.x + e && outer.y <= inner.y + e && outer.maxX >= inner.maxX - e
            && outer.maxY >= inner.maxY - e
    }

    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x0 = max(a.x, b.x), y0 = max(a.y, b.y), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        return x0 < x1 && y0 < y1 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// Effects list tiles in a fixed order, so equal states give equal effects.
    static func order(_ a: TileKey, _ b: TileKey) -> Bool {
        (a.scale, a.row, a.column) < (b.scale, b.row, b.column)
    }

    /// Scales computed along different paths may differ in the last bits.
    private func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(a, b) }
}
