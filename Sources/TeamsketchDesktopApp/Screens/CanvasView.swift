import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The drawing surface on screen. Every canvas rule lives in `CanvasEngine`;
/// this view turns GDK events into engine events, carries out the engine's
/// effects (ink tiles, storing, the session, timers) and paints: the tiles,
/// the live tail of the stroke in progress, the eraser ring and the minimap.
@MainActor
final class CanvasView {
    typealias Tool = CanvasTool

    let widget: Widget
    private(set) var engine: CanvasEngine
    private let tiles = InkTileCache()
    /// Called with each op that enters the document here (to persist it).
    var onOp: (SketchOp) -> Void = { _ in }
    /// Set in a LAN session: where own strokes and erasures go.
    private weak var session: (any CanvasSessionLink)?

    private var minimap: CairoImage?
    private var minimapSource: (generation: Int, tiles: Int)?
    /// What fingers, a stylus and the mouse mean (the core decides).
    var arbiter = TouchArbiter()
    /// A mouse button or a pen is down: its motion is a stroke's, not hover.
    private var penDown = false
    private var painting = false

    var document: SketchDocument { engine.document }
    var viewport: Viewport { engine.viewport }
    var pen: Pen {
        get { engine.pen }
        set { engine.pen = newValue }
    }
    var tool: Tool {
        get { engine.tool }
        set { engine.tool = newValue }
    }
    var drawingEnabled: Bool {
        get { engine.drawingEnabled }
        set { send(.drawingEnabled(newValue)) }
    }

    var mayErase: Bool { engine.mayErase }
    var mayUndo: Bool { engine.permissions.mayUndo }
    func undoOwnStroke() { send(.undoOwnStroke) }

    init(document: SketchDocument, author: String, permissions: SketchPermissions, session: (any CanvasSessionLink)? = nil) {
        engine = CanvasEngine(document: document, author: author, isShared: session != nil, permissions: permissions)
        self.session = session
        widget = UI.drawingArea(role: GTK_ACCESSIBLE_ROLE_IMG)
        UI.expand(widget)
        gtk_widget_set_focusable(widget, 1)
        UI.accessibleLabel(widget, `_`("Drawing sheet"))
        describeSheet()
        UI.setDrawFunc(widget) { [weak self] cr, w, h in self?.draw(cr, width: Double(w), height: Double(h)) }
        installInput()
    }

    func teardown() {
        tiles.removeAll()
        minimap = nil
    }

    func setZoom(_ zoom: Double, anchor: Point? = nil) { send(.zoom(zoom, anchor: anchor)) }

    // MARK: the shared sketch (LAN session)

    func reset(to doc: SketchDocument, live: [LiveStroke]) { send(.reset(doc, live: live)) }
    func remoteBegan(_ live: LiveStroke) { send(.remoteBegan(live)) }
    func remoteExtended(_ id: UUID, firstIndex: Int, segments: [CubicSegment]) {
        send(.remoteExtended(id, firstIndex: firstIndex, segments: segments))
    }
    /// The host put an op in the shared order: this is when it enters the
    /// document here, for own ops as for everyone else's.
    func sharedOpApplied(_ op: SketchOp, isOwn: Bool) { send(.sharedOpApplied(op, isOwn: isOwn)) }
    func ownStrokeRefused(_ id: UUID) { send(.ownStrokeRefused(id)) }
    /// Shows what a session event changes on the sheet (a watcher's canvas).
    func follow(_ event: SessionEvent) {
        if let sheet = CanvasEvent(sheetOf: event) { send(sheet) }
    }

    // MARK: engine

    @discardableResult
    private func send(_ event: CanvasEvent) -> Bool {
        let used = engine.handle(event)
        carryOut(engine.takeEffects())
        return used
    }

    private func carryOut(_ effects: [CanvasEffect]) {
        for effect in effects where !engine.carryOut(effect, on: tiles) {
            switch effect {
            case .store(let op):
                onOp(op)
            case .session(let intent):
                if let session { intent.send(to: session) }
            case .scheduleSettle(let generation):
                runAfter(ms: CanvasEngine.settleDelayMS) { [weak self] in self?.send(.settle(generation: generation)) }
            case .scheduleIdle:
                runWhenIdle { [weak self] in self?.send(.idle) }
            case .invalidate:
                // A frame being painted needs no second one.
                if !painting { gtk_widget_queue_draw(widget) }
            case .render, .drop, .ink, .redraw:
                break
            }
        }
    }

    // MARK: painting

    private var describedLines = -1
    private var describing = false

    /// Screen readers hear what the sheet holds: lines and who drew them.
    private func describeSheet() {
        describing = false
        let strokes = engine.document.strokes
        describedLines = strokes.count
        UI.accessibleDescription(widget, SheetSummaryText.sentence(SheetSummary(strokes)))
    }

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        painting = true
        send(.resize(width: width, height: height, deviceScale: Double(gtk_widget_get_scale_factor(widget))))
        send(.frame)
        painting = false

        SheetPainter.paint(engine, tiles: tiles, on: cr)
        if engine.document.strokes.count != describedLines, !describing {
            // At most once a second: a line drawn is often followed by more.
            describing = true
            runAfter(ms: 1000) { [weak self] in self?.describeSheet() }
        }

        if let ring = engine.eraserRing {
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.3, 0.6)
            cairo_set_line_width(cr, 2)
            cairo_new_path(cr)
            cairo_arc(cr, ring.center.x, ring.center.y, ring.radius, 0, 2 * .pi)
            cairo_stroke(cr)
        }
        if let m = engine.minimap { drawMinimap(m, cr) }
    }

    /// The overview tiles shrunk to the minimap's size; made again only when
    /// the ink or the overview changed.
    private func drawMinimap(_ m: MinimapModel, _ cr: OpaquePointer) {
        let r = m.rect
        let overview = engine.tiles.overview(engine.tileFrame)
        let source = (engine.minimapGeneration, overview.count)
        if minimap == nil || minimapSource.map({ $0 != source }) ?? true,
           let image = try? CairoImage(width: Int(r.width), height: Int(r.height)) {
            let mcr = cairo_create(image.surface)!
            cairo_set_source_rgb(mcr, 1, 1, 1)
            cairo_paint(mcr)
            tiles.paint(overview, on: mcr, origin: Point(0, 0), scale: m.scale)
            cairo_destroy(mcr)
            minimap = image
            minimapSource = source
        }
        guard let minimap else { return }
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.35)
        cairo_rectangle(cr, r.x - 3, r.y - 3, r.width + 6, r.height + 6)
        cairo_fill(cr)
        cairo_set_source_surface(cr, minimap.surface, r.x, r.y)
        cairo_paint(cr)
        let f = m.frame
        cairo_set_source_rgba(cr, 0.17, 0.17, 0.43, 0.9)
        cairo_set_line_width(cr, 2)
        cairo_rectangle(cr, f.x, f.y, f.width, f.height)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    // MARK: input

    private func installInput() {
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        Signal.connectScroll(UnsafeMutableRawPointer(scroll), "scroll") { [weak self] dx, dy in
            guard let self else { return false }
            let state = gtk_event_controller_get_current_event_state(ts_controller(gp(scroll)))
            return self.send(.wheel(dx: dx, dy: dy, control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0))
        }
        gtk_widget_add_controller(widget, ts_controller(gp(scroll)))

        let legacy = gtk_event_controller_legacy_new()!
        Signal.connectEvent(UnsafeMutableRawPointer(legacy), "event") { [weak self] event in
            self?.handle(event) ?? false
        }
        gtk_widget_add_controller(widget, ts_controller(gp(legacy)))
    }

    /// Raw events, so every sample (and the motion history GTK merges into
    /// one event per frame) reaches the engine. Pointer-emulated events are
    /// skipped so a touch does not draw twice.
    private func handle(_ event: OpaquePointer) -> Bool {
        let type = gdk_event_get_event_type(event)
        var ex = 0.0, ey = 0.0
        guard gdk_event_get_position(event, &ex, &ey) != 0 else { return false }
        let offset = surfaceOffset()
        let here = Point(ex + offset.x, ey + offset.y)
        let emulated = gdk_event_get_pointer_emulated(event) != 0

        let time = Double(gdk_event_get_time(event)) / 1000
        switch type {
        case GDK_BUTTON_PRESS where !emulated:
            guard gdk_button_event_get_button(event) == 1 else { return false }
            gtk_widget_grab_focus(widget)
            penDown = true
            return arbitrate(.down(id: Self.pointerID, source: Self.source(event), at: here, time: time))
        case GDK_MOTION_NOTIFY where !emulated:
            let points = history(event, offset: offset) + [here]
            guard penDown else { return send(.motion(points)) }
            return arbitrate(.moved(id: Self.pointerID, points: points, time: time))
        case GDK_BUTTON_RELEASE where !emulated:
            guard gdk_button_event_get_button(event) == 1 else { return false }
            penDown = false
            arbitrate(.up(id: Self.pointerID, at: here, time: time))
            return true
        case GDK_TOUCH_BEGIN:
            // Claimed even while held back, so the rest of the touch comes here.
            arbitrate(.down(id: Self.id(of: event), source: .finger, at: here, time: time))
            return true
        case GDK_TOUCH_UPDATE:
            arbitrate(.moved(id: Self.id(of: event), points: history(event, offset: offset) + [here], time: time))
            return true
        case GDK_TOUCH_END:
            arbitrate(.up(id: Self.id(of: event), at: here, time: time))
            return true
        case GDK_TOUCH_CANCEL:
            arbitrate(.cancelled(id: Self.id(of: event)))
            return true
        case GDK_PROXIMITY_IN, GDK_PROXIMITY_OUT:
            arbitrate(.stylusNear(type == GDK_PROXIMITY_IN, time: time))
            return false
        case GDK_TOUCHPAD_PINCH:
            // A touchpad's pinch comes whole from the toolkit: no fingers to sort.
            switch gdk_touchpad_event_get_gesture_phase(event) {
            case GDK_TOUCHPAD_GESTURE_PHASE_BEGIN: return send(.pinchBegan(center: here))
            case GDK_TOUCHPAD_GESTURE_PHASE_UPDATE:
                return send(.pinchChanged(scale: gdk_touchpad_event_get_pinch_scale(event), center: here))
            default: return send(.pinchEnded)
            }
        default:
            return send(.hover(here))
        }
    }

    /// The mouse and a pen are one pointer; each finger is its own.
    private static let pointerID = -1

    private static func id(of event: OpaquePointer) -> Int {
        gdk_event_get_event_sequence(event).map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0
    }

    private static func source(_ event: OpaquePointer) -> TouchArbiter.Source {
        if isEraserTip(event) { return .eraser }
        guard let device = gdk_event_get_device(event) else { return .mouse }
        return gdk_device_get_source(device) == GDK_SOURCE_PEN ? .stylus : .mouse
    }

    @discardableResult
    private func arbitrate(_ contact: TouchArbiter.Contact) -> Bool {
        let events = arbiter.handle(contact)
        var used = false
        for e in events { used = send(e) || used }
        return used || !events.isEmpty
    }

    private static func isEraserTip(_ event: OpaquePointer) -> Bool {
        gdk_event_get_device_tool(event).map { gdk_device_tool_get_tool_type($0) == GDK_DEVICE_TOOL_TYPE_ERASER } ?? false
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
}
