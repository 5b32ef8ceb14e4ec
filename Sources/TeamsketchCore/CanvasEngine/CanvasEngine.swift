import Foundation
import LearnModel
import LearnRender

/// The canvas without a window: pen, eraser, zoom and the LAN session's ink
/// go in as `CanvasEvent`s; ink for the tiles, ops to store, session intents
/// and timer requests come out as `CanvasEffect`s. The view translates the
/// toolkit's events, carries out the effects and paints; every rule of the
/// canvas lives here, where tests drive it with the same sequences a pupil's
/// hand makes.
public struct CanvasEngine: Sendable {
    public private(set) var document: SketchDocument
    public private(set) var viewport: Viewport
    public private(set) var deviceScale = 1.0
    public private(set) var tiles = TilePlanner()
    public var pen = Pen(color: .black, width: .fine)
    public var tool: CanvasTool = .pen
    public var author: String
    /// In a LAN session own strokes stream out while drawn and enter the
    /// document only when the host has ordered them (`.sharedOpApplied`).
    public let isShared: Bool
    public private(set) var drawingEnabled = true
    /// Two fingers are zooming: touches do not draw.
    public var isPinching: Bool { pinching }
    /// Changes whenever finished ink changes, so the minimap is redrawn then
    /// and not on every frame.
    public private(set) var minimapGeneration = 0

    private var builder: StrokeBuilder?
    private var strokeTool: CanvasTool = .pen
    private var lastEraserPoint: Point?
    private var pointer = Point(0, 0)
    private var pinching = false
    private var pinchStartZoom = 1.0
    private var pinchLastCenter: Point?
    private var settleGeneration = 0
    /// Other people's strokes being drawn right now.
    private var remote: [UUID: RemoteInk] = [:]
    /// Own shared strokes finished here but not yet ordered by the host: on
    /// the tiles already, in the document not yet.
    private var awaitingHost: [UUID: Stroke] = [:]
    private var effects: [CanvasEffect] = []

    /// Radius of the eraser in canvas units.
    public static let eraserRadius = 14.0
    /// How long a zoom must rest before the tiles are drawn again at the new scale.
    public static let settleDelayMS: UInt32 = 160
    /// Pen moves shorter than this (widget pixels) add nothing.
    public static let minimumMove = 0.3

    public init(document: SketchDocument, author: String, isShared: Bool = false) {
        self.document = document
        self.author = author
        self.isShared = isShared
        viewport = Viewport(canvasWidth: document.meta.width, canvasHeight: document.meta.height)
    }

    /// The effects of the events handled since the last call, in order.
    public mutating func takeEffects() -> [CanvasEffect] {
        defer { effects = [] }
        return effects
    }

    /// Handles one event; true when it was used (the toolkit then stops
    /// offering it to others).
    @discardableResult
    public mutating func handle(_ event: CanvasEvent) -> Bool {
        switch event {
        case let .resize(width, height, scale):
            guard width != viewport.widgetWidth || height != viewport.widgetHeight || scale != deviceScale else {
                return true
            }
            viewport.resize(width: width, height: height)
            deviceScale = scale
            if tiles.scale != nil { scheduleSettle() }
        case let .press(p, eraserTip):
            return press(at: p, eraserTip: eraserTip)
        case .motion(let points):
            guard let last = points.last else { return false }
            pointer = last
            guard builder != nil || lastEraserPoint != nil else {
                if tool == .eraser { emit(.invalidate) }
                return false
            }
            for p in points { move(to: p) }
        case .release(let p):
            pointer = p
            guard builder != nil || lastEraserPoint != nil else { return false }
            move(to: p)
            finishStroke()
        case .cancel:
            cancelStroke()
        case .hover(let p):
            pointer = p
            return false
        case let .zoom(zoom, anchor):
            setZoom(zoom, anchor: anchor)
        case .pinchBegan(let center):
            cancelStroke()
            pinching = true
            pinchStartZoom = viewport.zoom
            pinchLastCenter = center
        case let .pinchChanged(scale, center):
            let c = center ?? pointer
            if let last = pinchLastCenter { viewport.scroll(dx: last.x - c.x, dy: last.y - c.y) }
            pinchLastCenter = c
            setZoom(pinchStartZoom * scale, anchor: c)
        case .pinchEnded:
            pinching = false
            scheduleSettle()
        case let .wheel(dx, dy, control):
            if control {
                setZoom(viewport.zoom * exp(-dy * 0.15), anchor: pointer)
            } else if viewport.isZoomed {
                viewport.scroll(dx: dx * 40, dy: dy * 40)
                emit(.invalidate)
            } else {
                return false
            }
        case .settle(let generation):
            guard generation == settleGeneration, !pinching else { return true }
            let changes = tiles.settle(frame)
            effects += changes
            if !changes.isEmpty { emit(.invalidate) }
        case .frame:
            effects += tiles.frame(frame)
        case .idle:
            let changes = tiles.idle(frame)
            effects += changes
            if changes.contains(where: { if case .render = $0 { true } else { false } }) { emit(.invalidate) }
        case .drawingEnabled(let on):
            drawingEnabled = on
            if !on { cancelStroke() }
        case .remoteBegan(let live):
            remote[live.id] = RemoteInk(color: live.color, width: live.width, start: live.start)
            remoteExtended(live.id, firstIndex: 0, segments: live.cubicSegments)
        case let .remoteExtended(id, first, segments):
            remoteExtended(id, firstIndex: first, segments: segments)
        case let .sharedOpApplied(op, isOwn):
            sharedOpApplied(op, isOwn: isOwn)
        case let .reset(doc, live):
            document = doc
            remote = [:]
            awaitingHost = [:]
            effects += tiles.forgetAll()
            minimapGeneration += 1
            for l in live { handle(.remoteBegan(l)) }
            emit(.invalidate)
        }
        return true
    }

    // MARK: what the view paints

    public var tileFrame: TilePlanner.Frame { frame }

    /// Tiles to paint, bottom first.
    public var tilesToPaint: [TileKey] { tiles.paintOrder(frame) }

    /// The minimap while zoomed.
    public var minimap: MinimapModel? { viewport.isZoomed ? MinimapModel(viewport) : nil }

    /// Ink not yet on the tiles: the samples of the own stroke that are not
    /// fitted into a segment yet (drawn as a polyline so ink follows the pen
    /// with no lag), or the dot of a tap that has not moved.
    public var liveTail: InkRun? {
        guard let builder, strokeTool == .pen else { return nil }
        let tail = builder.pendingTail
        if builder.segments.isEmpty && tail.count == 1 {
            return InkRun(color: builder.color, width: builder.width, start: builder.start, segments: [], isDot: true)
        }
        guard let first = tail.first else { return nil }
        var from = first
        let lines = tail.dropFirst().map { p in
            defer { from = p }
            return CubicSegment.line(from: from, to: p)
        }
        return InkRun(color: pen.color.rgba, width: pen.width.units, start: first, segments: lines)
    }

    /// The eraser's circle while erasing: centre and radius in widget units.
    public var eraserRing: (center: Point, radius: Double)? {
        guard tool == .eraser || strokeTool == .eraser, builder != nil || lastEraserPoint != nil else { return nil }
        let p = viewport.toWidget(lastEraserPoint ?? viewport.toCanvas(pointer))
        return (p, Self.eraserRadius * viewport.scale)
    }

    /// Strokes that are on the tiles but not in the document: the own stroke
    /// in progress or waiting for the host, and other people's in progress.
    /// A tile drawn afresh draws them on top of the document's.
    public var liveStrokes: [Stroke] {
        var out: [Stroke] = []
        if let builder, strokeTool == .pen, !builder.segments.isEmpty {
            out.append(Stroke(id: builder.id, author: author, color: builder.color, width: builder.width,
                              start: builder.start, segments: builder.segments, startedAt: builder.startedAt,
                              endedAt: builder.startedAt))
        }
        out += awaitingHost.values.sorted { $0.startedAt < $1.startedAt }
        out += remote.values.filter { !$0.segments.isEmpty }.map(\.stroke)
        return out
    }

    // MARK: drawing

    private var frame: TilePlanner.Frame { TilePlanner.Frame(viewport: viewport, deviceScale: deviceScale) }

    private mutating func emit(_ e: CanvasEffect) { effects.append(e) }

    private mutating func press(at p: Point, eraserTip: Bool) -> Bool {
        pointer = p
        if let minimap, minimap.contains(p) {
            viewport.centre(on: minimap.canvasPoint(at: p))
            emit(.invalidate)
            return true
        }
        guard drawingEnabled else { return true }
        let c = viewport.toCanvas(p)
        strokeTool = eraserTip ? .eraser : tool
        switch strokeTool {
        case .pen:
            let b = StrokeBuilder(author: author, color: pen.color.rgba, width: pen.width.units, start: c, at: Date(),
                                  minDistance: Self.minimumMove / viewport.scale)
            builder = b
            if isShared { emit(.session(.beginStroke(id: b.id, color: b.color, width: b.width, start: b.start))) }
        case .eraser:
            lastEraserPoint = c
            erase(from: c, to: c)
        }
        emit(.invalidate)
        return true
    }

    private mutating func move(to widgetPoint: Point) {
        let p = viewport.toCanvas(widgetPoint)
        if var b = builder {
            let segments = b.add(p)
            builder = b
            if !segments.isEmpty {
                let n = b.segments.count - segments.count
                let from = n > 0 ? b.segments[n - 1].end : b.start
                ink(InkRun(color: b.color, width: b.width, start: from, segments: segments))
                if isShared { emit(.session(.addSegments(segments, to: b.id))) }
            }
            emit(.invalidate)
        } else if let last = lastEraserPoint {
            erase(from: last, to: p)
            lastEraserPoint = p
            emit(.invalidate)
        }
    }

    private mutating func finishStroke() {
        if var b = builder {
            let from = b.segments.last?.end ?? b.start
            let (tail, stroke) = b.finish(at: Date())
            builder = nil
            if stroke.isDot {
                ink(InkRun(color: stroke.color, width: stroke.width, start: stroke.start, segments: [], isDot: true))
            } else if !tail.isEmpty {
                ink(InkRun(color: stroke.color, width: stroke.width, start: from, segments: tail))
            }
            if isShared {
                if !tail.isEmpty { emit(.session(.addSegments(tail, to: stroke.id))) }
                emit(.session(.endStroke(stroke.id)))
                awaitingHost[stroke.id] = stroke
            } else {
                let op = SketchOp.addStroke(stroke)
                if document.apply(op) { emit(.store(op)) }
            }
            minimapGeneration += 1
        }
        lastEraserPoint = nil
        emit(.invalidate)
    }

    /// Drops the stroke in progress (a pinch started, time ran out) and
    /// removes its ink from the tiles. A shared stroke is already on the
    /// others' screens, so it is finished instead.
    private mutating func cancelStroke() {
        if isShared, builder != nil { return finishStroke() }
        if let b = builder {
            builder = nil
            var r = Rect.null.union(b.start)
            for s in b.segments { r = r.union(s.end).union(s.c1).union(s.c2) }
            redraw(r.insetBy(-b.width))
        }
        lastEraserPoint = nil
        emit(.invalidate)
    }

    private mutating func erase(from a: Point, to b: Point) {
        let hits = StrokeHitTest.strokes(in: document.strokes, hitAlong: a, to: b, radius: Self.eraserRadius)
        guard !hits.isEmpty else { return }
        if isShared {
            // The host orders erasures like everything else; the ink goes
            // when the op comes back (a LAN round trip, a few ms).
            for id in hits { emit(.session(.erase(id))) }
            return
        }
        var damaged = Rect.null
        for id in hits {
            guard let stroke = document.strokes.first(where: { $0.id == id }) else { continue }
            let op = SketchOp.eraseStroke(id: id, by: author, at: Date())
            if document.apply(op) {
                damaged = damaged.union(stroke.bounds)
                emit(.store(op))
            }
        }
        redraw(damaged)
    }

    // MARK: the shared sketch

    private mutating func remoteExtended(_ id: UUID, firstIndex: Int, segments: [CubicSegment]) {
        guard var r = remote[id] else { return }
        // Segments already drawn are skipped; a gap (lost while rejoining)
        // is bridged by continuing from the last ink drawn.
        let skip = max(0, r.drawn - firstIndex)
        guard skip < segments.count else { return }
        let fresh = Array(segments[skip...])
        ink(InkRun(color: r.color, width: r.width, start: r.end, segments: fresh))
        r.segments += fresh
        r.drawn = max(r.drawn, firstIndex) + fresh.count
        remote[id] = r
        emit(.invalidate)
    }

    private mutating func sharedOpApplied(_ op: SketchOp, isOwn: Bool) {
        switch op {
        case .addStroke(let s):
            guard document.apply(op) else { return }
            emit(.store(op))
            if isOwn {
                awaitingHost[s.id] = nil
            } else {
                let r = remote.removeValue(forKey: s.id)
                let drawn = r?.drawn ?? 0
                if s.isDot && drawn == 0 {
                    ink(InkRun(color: s.color, width: s.width, start: s.start, segments: [], isDot: true))
                } else if drawn < s.segments.count {
                    ink(InkRun(color: s.color, width: s.width, start: r?.end ?? s.start,
                               segments: Array(s.segments.dropFirst(drawn))))
                }
                minimapGeneration += 1
            }
        case .eraseStroke(let id, _, _):
            let bounds = document.strokes.first { $0.id == id }?.bounds
            guard document.apply(op), let bounds else { return }
            emit(.store(op))
            redraw(bounds)
        case .clear:
            guard document.apply(op) else { return }
            emit(.store(op))
            remote = [:]
            effects += tiles.forgetAll()
            minimapGeneration += 1
        }
        emit(.invalidate)
    }

    // MARK: tiles and zoom

    private mutating func ink(_ run: InkRun) {
        let damaged = tiles.damaged(by: run.bounds)
        if !damaged.isEmpty { emit(.ink(run, tiles: damaged)) }
    }

    /// Draws a canvas region of the tiles again from the document: only
    /// the erased stroke's bounds, never the whole sheet.
    private mutating func redraw(_ region: Rect) {
        guard !region.isNull else { return }
        let r = region.insetBy(-2)
        let damaged = tiles.damaged(by: r)
        if !damaged.isEmpty { emit(.redraw(r, tiles: damaged)) }
        minimapGeneration += 1
    }

    private mutating func setZoom(_ zoom: Double, anchor: Point?) {
        viewport.setZoom(zoom, anchor: anchor ?? Point(viewport.widgetWidth / 2, viewport.widgetHeight / 2))
        scheduleSettle()
        emit(.invalidate)
    }

    /// While zooming, the tiles are shown stretched; once input rests for a
    /// moment they are drawn again, crisp, at the new scale.
    private mutating func scheduleSettle() {
        settleGeneration += 1
        emit(.scheduleSettle(generation: settleGeneration))
    }
}
