import CGtk
import Foundation
import LearnModel
import LearnRender

/// The drawing surface. Finished ink lives in a cached image surface at the
/// current scale; a new segment is stroked into the cache alone, and a frame
/// is one paint of the cache plus the live tail of the stroke in progress.
@MainActor
final class CanvasView {
    enum Tool { case pen, eraser }

    let widget: Widget
    private(set) var document: SketchDocument
    private(set) var viewport: Viewport
    var pen = Pen(color: .black, width: .fine)
    var tool: Tool = .pen
    var author: String
    var drawingEnabled = true { didSet { if !drawingEnabled { cancelStroke() } } }

    /// Called with each op this view adds to the document (to persist it).
    var onOp: (SketchOp) -> Void = { _ in }
    /// Set in a LAN session: own strokes stream out while drawn and enter the
    /// document when the host has ordered them (`sharedOpApplied`).
    weak var session: SessionController?
    /// Other people's strokes being drawn right now: where each one's ink ends
    /// and how many of its segments are already in the cache.
    private var remote: [UUID: RemoteInk] = [:]

    private struct RemoteInk {
        var color: RGBA
        var width: Double
        var end: Point
        var drawn: Int
    }

    private var cache: OpaquePointer?
    private var cacheScale = 0.0
    private var minimap: OpaquePointer?
    private var builder: StrokeBuilder?
    private var strokeTool: Tool = .pen
    private var lastEraserPoint: Point?
    private var touchSequence: OpaquePointer?
    private var pinching = false
    private var pinchStartZoom = 1.0
    private var pinchLastCenter: Point?
    private var pointer = Point(0, 0)
    private var settleGeneration = 0

    static let eraserRadius = 14.0
    private static let minimapWidth = 200.0

    init(document: SketchDocument, author: String) {
        self.document = document
        self.author = author
        viewport = Viewport(canvasWidth: document.meta.width, canvasHeight: document.meta.height)
        widget = gtk_drawing_area_new()!
        UI.expand(widget)
        gtk_widget_set_focusable(widget, 1)
        UI.accessibleLabel(widget, `_`("Drawing sheet"))
        installDrawFunc()
        installInput()
    }

    func teardown() {
        if let cache { cairo_surface_destroy(cache) }
        if let minimap { cairo_surface_destroy(minimap) }
        cache = nil
        minimap = nil
    }

    // MARK: document changes from outside (clear, later: peers)

    func apply(_ op: SketchOp) {
        guard document.apply(op) else { return }
        switch op {
        case .addStroke(let s): drawIntoCache(s)
        case .eraseStroke, .clear: renderCache()
        }
        invalidate()
    }

    // MARK: shared sketch (LAN session)

    func reset(to doc: SketchDocument, live: [LiveStroke]) {
        document = doc
        remote = [:]
        renderCache()
        for l in live { remoteBegan(l) }
        invalidate()
    }

    func remoteBegan(_ live: LiveStroke) {
        remote[live.id] = RemoteInk(color: live.color, width: live.width, end: live.start, drawn: 0)
        remoteExtended(live.id, firstIndex: 0, segments: live.cubicSegments)
    }

    func remoteExtended(_ id: UUID, firstIndex: Int, segments: [CubicSegment]) {
        guard var ink = remote[id] else { return }
        // Segments we already drew are skipped; a gap (lost while rejoining)
        // is bridged by continuing from the last ink drawn.
        let skip = max(0, ink.drawn - firstIndex)
        guard skip < segments.count else { return }
        let fresh = segments[skip...]
        withCache { cr in
            for seg in fresh {
                SketchRenderer.drawSegment(seg, from: ink.end, color: ink.color, width: ink.width, in: cr)
                ink.end = seg.end
            }
        }
        ink.drawn = max(ink.drawn, firstIndex) + fresh.count
        remote[id] = ink
        invalidate()
    }

    /// The host put an op in the shared order: this is when it enters the
    /// document here, for own ops as for everyone else's.
    func sharedOpApplied(_ op: SketchOp, isOwn: Bool) {
        switch op {
        case .addStroke(let s):
            guard document.apply(op) else { return }
            onOp(op)
            if !isOwn {
                let ink = remote.removeValue(forKey: s.id)
                withCache { cr in
                    if s.isDot && (ink?.drawn ?? 0) == 0 { SketchRenderer.draw(s, in: cr); return }
                    var from = ink?.end ?? s.start
                    for seg in s.segments.dropFirst(ink?.drawn ?? 0) {
                        SketchRenderer.drawSegment(seg, from: from, color: s.color, width: s.width, in: cr)
                        from = seg.end
                    }
                }
                invalidateMinimap()
            }
        case .eraseStroke(let id, _, _):
            let bounds = document.strokes.first { $0.id == id }?.bounds
            guard document.apply(op), let bounds else { return }
            onOp(op)
            rerenderCache(region: bounds)
        case .clear:
            guard document.apply(op) else { return }
            onOp(op)
            remote = [:]
            renderCache()
        }
        invalidate()
    }

    // MARK: rendering

    private func installDrawFunc() {
        UI.setDrawFunc(widget) { [weak self] cr, w, h in self?.draw(cr, width: Double(w), height: Double(h)) }
    }

    private func invalidate() { gtk_widget_queue_draw(widget) }

    private var deviceScale: Double { Double(gtk_widget_get_scale_factor(widget)) }

    /// The cache's pixels per canvas unit, capped so a zoomed cache stays
    /// within memory targets (about 24 megapixels).
    private var wantedCacheScale: Double {
        let s = viewport.scale * deviceScale
        let cap = (24_000_000 / (viewport.canvasWidth * viewport.canvasHeight)).squareRoot()
        return min(s, cap)
    }

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        if width != viewport.widgetWidth || height != viewport.widgetHeight {
            viewport.resize(width: width, height: height)
            if cache == nil { renderCache() } else { scheduleSettle() }
        }
        if cache == nil { renderCache() }
        guard let cache else { return }

        cairo_set_source_rgb(cr, 0.85, 0.83, 0.78)
        cairo_paint(cr)

        let o = viewport.origin, s = viewport.scale
        cairo_save(cr)
        cairo_rectangle(cr, o.x, o.y, viewport.canvasWidth * s, viewport.canvasHeight * s)
        cairo_clip(cr)
        cairo_translate(cr, o.x, o.y)
        let ratio = s / (cacheScale / deviceScale)
        cairo_scale(cr, ratio, ratio)
        cairo_set_source_surface(cr, cache, 0, 0)
        // An unscaled cache maps pixel to pixel; filtering would only cost time.
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, abs(ratio - 1) < 1e-6 ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)

        if let builder, strokeTool == .pen {
            cairo_save(cr)
            cairo_translate(cr, o.x, o.y)
            cairo_scale(cr, s, s)
            let tail = builder.pendingTail
            if builder.segments.isEmpty && tail.count == 1 {
                let dot = Stroke(author: author, color: builder.color, width: builder.width, start: builder.start,
                                 segments: [], startedAt: builder.startedAt, endedAt: builder.startedAt)
                SketchRenderer.draw(dot, in: cr)
            } else {
                SketchRenderer.drawPolyline(tail, color: pen.color.rgba, width: pen.width.units, in: cr)
            }
            cairo_restore(cr)
        }
        if tool == .eraser || strokeTool == .eraser, builder != nil || lastEraserPoint != nil {
            let p = viewport.toWidget(lastEraserPoint ?? viewport.toCanvas(pointer))
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.3, 0.6)
            cairo_set_line_width(cr, 2)
            cairo_arc(cr, p.x, p.y, Self.eraserRadius * s, 0, 2 * .pi)
            cairo_stroke(cr)
        }
        if viewport.isZoomed { drawMinimap(cr) }
    }

    private func renderCache() {
        let scale = wantedCacheScale
        let w = Int32((viewport.canvasWidth * scale).rounded(.up))
        let h = Int32((viewport.canvasHeight * scale).rounded(.up))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, max(w, 1), max(h, 1))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
        SketchRenderer.draw(document, in: cr, clip: nil)
        cairo_destroy(cr)
        if let cache { cairo_surface_destroy(cache) }
        cache = surface
        cacheScale = scale
        invalidateMinimap()
    }

    /// Redraws one canvas region of the cache from the document (after an erase).
    private func rerenderCache(region: Rect) {
        guard let cache else { return renderCache() }
        let cr = cairo_create(cache)!
        cairo_scale(cr, cacheScale, cacheScale)
        let r = region.insetBy(-2)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_clip(cr)
        SketchRenderer.draw(document, in: cr, clip: r)
        cairo_destroy(cr)
        invalidateMinimap()
    }

    private func withCache(_ body: (OpaquePointer) -> Void) {
        guard let cache else { return }
        let cr = cairo_create(cache)!
        cairo_scale(cr, cacheScale, cacheScale)
        body(cr)
        cairo_destroy(cr)
    }

    private func drawIntoCache(_ stroke: Stroke) {
        withCache { SketchRenderer.draw(stroke, in: $0) }
        invalidateMinimap()
    }

    private func invalidateMinimap() {
        if let minimap { cairo_surface_destroy(minimap) }
        minimap = nil
    }

    private var minimapRect: Rect {
        let w = Self.minimapWidth, h = w * viewport.canvasHeight / viewport.canvasWidth
        return Rect(x: viewport.widgetWidth - w - 16, y: viewport.widgetHeight - h - 16, width: w, height: h)
    }

    private func drawMinimap(_ cr: OpaquePointer) {
        let r = minimapRect
        if minimap == nil, let cache {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(r.width), Int32(r.height))!
            let mcr = cairo_create(surface)!
            let k = r.width / (viewport.canvasWidth * cacheScale)
            cairo_scale(mcr, k, k)
            cairo_set_source_surface(mcr, cache, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(mcr), CAIRO_FILTER_GOOD)
            cairo_paint(mcr)
            cairo_destroy(mcr)
            minimap = surface
        }
        guard let minimap else { return }
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.35)
        cairo_rectangle(cr, r.x - 3, r.y - 3, r.width + 6, r.height + 6)
        cairo_fill(cr)
        cairo_set_source_surface(cr, minimap, r.x, r.y)
        cairo_paint(cr)
        let v = viewport.visibleCanvasRect, k = r.width / viewport.canvasWidth
        cairo_set_source_rgba(cr, 0.17, 0.17, 0.43, 0.9)
        cairo_set_line_width(cr, 2)
        cairo_rectangle(cr, r.x + v.x * k, r.y + v.y * k, v.width * k, v.height * k)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    // MARK: zoom

    func setZoom(_ zoom: Double, anchor: Point? = nil) {
        viewport.setZoom(zoom, anchor: anchor ?? Point(viewport.widgetWidth / 2, viewport.widgetHeight / 2))
        scheduleSettle()
        invalidate()
    }

    /// While zooming, the old cache is shown scaled; once input rests for a
    /// moment the cache is rendered again, crisp, at the new scale.
    private func scheduleSettle() {
        settleGeneration += 1
        let generation = settleGeneration
        runAfter(ms: 160) { [weak self] in
            guard let self, generation == self.settleGeneration, !self.pinching else { return }
            if abs(self.wantedCacheScale - self.cacheScale) > 1e-9 {
                self.renderCache()
                self.invalidate()
            }
        }
    }

    // MARK: input

    private func installInput() {
        let zoom = gtk_gesture_zoom_new()!
        Signal.connect(UnsafeMutableRawPointer(zoom), "begin") { [weak self] in
            guard let self else { return }
            self.cancelStroke()
            self.pinching = true
            self.pinchStartZoom = self.viewport.zoom
            self.pinchLastCenter = Self.boundingCenter(zoom)
        }
        Signal.connectDouble(UnsafeMutableRawPointer(zoom), "scale-changed") { [weak self] scale in
            guard let self else { return }
            let c = Self.boundingCenter(zoom) ?? self.pointer
            if let last = self.pinchLastCenter { self.viewport.scroll(dx: last.x - c.x, dy: last.y - c.y) }
            self.pinchLastCenter = c
            self.setZoom(self.pinchStartZoom * scale, anchor: c)
        }
        Signal.connect(UnsafeMutableRawPointer(zoom), "end") { [weak self] in
            self?.pinching = false
            self?.scheduleSettle()
        }
        gtk_widget_add_controller(widget, ts_controller(gp(zoom)))

        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        Signal.connectScroll(UnsafeMutableRawPointer(scroll), "scroll") { [weak self] dx, dy in
            guard let self else { return false }
            let state = gtk_event_controller_get_current_event_state(ts_controller(gp(scroll)))
            if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 {
                self.setZoom(self.viewport.zoom * exp(-dy * 0.15), anchor: self.pointer)
            } else if self.viewport.isZoomed {
                self.viewport.scroll(dx: dx * 40, dy: dy * 40)
                self.invalidate()
            } else {
                return false
            }
            return true
        }
        gtk_widget_add_controller(widget, ts_controller(gp(scroll)))

        let legacy = gtk_event_controller_legacy_new()!
        Signal.connectEvent(UnsafeMutableRawPointer(legacy), "event") { [weak self] event in
            self?.handle(event) ?? false
        }
        gtk_widget_add_controller(widget, ts_controller(gp(legacy)))
    }

    private static func boundingCenter(_ gesture: OpaquePointer) -> Point? {
        var x = 0.0, y = 0.0
        return gtk_gesture_get_bounding_box_center(gesture, &x, &y) != 0 ? Point(x, y) : nil
    }

    /// Raw events, so every sample (and the motion history GTK merges into
    /// one event per frame) reaches the stroke builder.
    private func handle(_ event: OpaquePointer) -> Bool {
        let type = gdk_event_get_event_type(event)
        var ex = 0.0, ey = 0.0
        guard gdk_event_get_position(event, &ex, &ey) != 0 else { return false }
        let offset = surfaceOffset()
        let here = Point(ex + offset.x, ey + offset.y)
        pointer = here
        let emulated = gdk_event_get_pointer_emulated(event) != 0

        switch type {
        case GDK_BUTTON_PRESS where !emulated:
            guard gdk_button_event_get_button(event) == 1 else { return false }
            gtk_widget_grab_focus(widget)
            return begin(at: here, event: event)
        case GDK_MOTION_NOTIFY where !emulated:
            guard builder != nil || lastEraserPoint != nil else {
                if tool == .eraser { invalidate() }
                return false
            }
            for p in history(event, offset: offset) { move(to: p) }
            move(to: here)
            return true
        case GDK_BUTTON_RELEASE where !emulated:
            guard gdk_button_event_get_button(event) == 1 else { return false }
            end(at: here)
            return true
        case GDK_TOUCH_BEGIN:
            guard touchSequence == nil, !pinching else {
                // A second finger: this is a pinch, not a stroke.
                cancelStroke()
                return false
            }
            touchSequence = gdk_event_get_event_sequence(event)
            return begin(at: here, event: event)
        case GDK_TOUCH_UPDATE:
            guard gdk_event_get_event_sequence(event) == touchSequence, !pinching else { return false }
            for p in history(event, offset: offset) { move(to: p) }
            move(to: here)
            return true
        case GDK_TOUCH_END:
            guard gdk_event_get_event_sequence(event) == touchSequence else { return false }
            touchSequence = nil
            end(at: here)
            return true
        case GDK_TOUCH_CANCEL:
            touchSequence = nil
            cancelStroke()
            return true
        default:
            return false
        }
    }

    /// Event positions are relative to the window's surface; the drawing area
    /// sits somewhere inside it.
    private func surfaceOffset() -> Point {
        guard let native = gtk_widget_get_native(widget) else { return Point(0, 0) }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(native, &sx, &sy)
        var wx = 0.0, wy = 0.0
        _ = gtk_widget_translate_coordinates(ts_widget(gp(native)), widget, -sx, -sy, &wx, &wy)
        return Point(wx, wy)
    }

    private func history(_ event: OpaquePointer, offset: Point) -> [Point] {
        var n: UInt32 = 0
        guard let coords = gdk_event_get_history(event, &n), n > 0 else { return [] }
        defer { g_free(coords) }
        return (0..<Int(n)).map { i in
            withUnsafeBytes(of: coords[i].axes) { raw in
                let axes = raw.bindMemory(to: Double.self)
                return Point(axes[Int(GDK_AXIS_X.rawValue)] + offset.x, axes[Int(GDK_AXIS_Y.rawValue)] + offset.y)
            }
        }
    }

    private func begin(at widgetPoint: Point, event: OpaquePointer) -> Bool {
        if viewport.isZoomed, minimapRect.contains(widgetPoint) {
            let r = minimapRect
            viewport.centre(on: Point((widgetPoint.x - r.x) / r.width * viewport.canvasWidth,
                                      (widgetPoint.y - r.y) / r.height * viewport.canvasHeight))
            invalidate()
            return true
        }
        guard drawingEnabled else { return true }
        let p = viewport.toCanvas(widgetPoint)
        let isEraserTip = gdk_event_get_device_tool(event).map {
            gdk_device_tool_get_tool_type($0) == GDK_DEVICE_TOOL_TYPE_ERASER
        } ?? false
        strokeTool = isEraserTip ? .eraser : tool
        switch strokeTool {
        case .pen:
            let b = StrokeBuilder(author: author, color: pen.color.rgba, width: pen.width.units,
                                  start: p, at: Date(), minDistance: 0.3 / viewport.scale)
            builder = b
            session?.beginStroke(id: b.id, color: b.color, width: b.width, start: b.start)
        case .eraser:
            lastEraserPoint = p
            erase(from: p, to: p)
        }
        invalidate()
        return true
    }

    private func move(to widgetPoint: Point) {
        let p = viewport.toCanvas(widgetPoint)
        if var b = builder {
            let segments = b.add(p)
            var from = b.segments.count > segments.count ? b.segments[b.segments.count - segments.count - 1].end : b.start
            withCache { cr in
                for s in segments {
                    SketchRenderer.drawSegment(s, from: from, color: b.color, width: b.width, in: cr)
                    from = s.end
                }
            }
            builder = b
            if !segments.isEmpty { session?.addSegments(segments, to: b.id) }
            invalidate()
        } else if let last = lastEraserPoint {
            erase(from: last, to: p)
            lastEraserPoint = p
            invalidate()
        }
    }

    private func end(at widgetPoint: Point) {
        move(to: widgetPoint)
        finishStroke()
    }

    private func finishStroke() {
        if var b = builder {
            var from = b.segments.last?.end ?? b.start
            let (tail, stroke) = b.finish(at: Date())
            builder = nil
            withCache { cr in
                if stroke.isDot { SketchRenderer.draw(stroke, in: cr) }
                for s in tail {
                    SketchRenderer.drawSegment(s, from: from, color: stroke.color, width: stroke.width, in: cr)
                    from = s.end
                }
            }
            if let session {
                if !tail.isEmpty { session.addSegments(tail, to: stroke.id) }
                session.endStroke(stroke.id)
            } else {
                let op = SketchOp.addStroke(stroke)
                if document.apply(op) { onOp(op) }
            }
            invalidateMinimap()
        }
        lastEraserPoint = nil
        invalidate()
    }

    /// Drops the stroke in progress (a pinch started, time ran out) and removes
    /// its ink from the cache.
    private func cancelStroke() {
        // Shared strokes are already on the others' screens: keep what was drawn.
        if session != nil, builder != nil { return finishStroke() }
        if let b = builder {
            builder = nil
            var r = Rect.null.union(b.start)
            for s in b.segments { r = r.union(s.end).union(s.c1).union(s.c2) }
            rerenderCache(region: r.insetBy(-b.width))
        }
        lastEraserPoint = nil
        invalidate()
    }

    private func erase(from a: Point, to b: Point) {
        let hits = StrokeHitTest.strokes(in: document.strokes, hitAlong: a, to: b, radius: Self.eraserRadius)
        guard !hits.isEmpty else { return }
        if let session {
            // The host orders erasures like everything else; the ink goes
            // when the op comes back (a LAN round trip, a few ms).
            for id in hits { session.erase(id) }
            return
        }
        var damaged = Rect.null
        for id in hits {
            guard let stroke = document.strokes.first(where: { $0.id == id }) else { continue }
            let op = SketchOp.eraseStroke(id: id, by: author, at: Date())
            if document.apply(op) {
                damaged = damaged.union(stroke.bounds)
                onOp(op)
            }
        }
        if !damaged.isNull { rerenderCache(region: damaged) }
    }
}
