import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The replay: the sketch as it was at the player's position, fitted into
/// the area, and as close as the teacher wants to look: zoomed 1–4× (the
/// buttons, Ctrl and the wheel at the pointer, as on the pupils' canvas),
/// moved by dragging or the wheel while zoomed. `Viewport` decides the
/// zoom and keeps the sheet on screen; the player decides what is shown.
@MainActor
final class ReplayView {
    let widget: Widget
    private let meta: SketchMeta
    private var viewport: Viewport
    private var dragStart: Point?
    var strokes: [Stroke] = [] {
        didSet { gtk_widget_queue_draw(widget) }
    }

    var zoom: Double { viewport.zoom }

    init(meta: SketchMeta) {
        self.meta = meta
        viewport = Viewport(canvasWidth: max(1, meta.width), canvasHeight: max(1, meta.height))
        widget = gtk_drawing_area_new()!
        UI.expand(widget)
        gtk_widget_set_size_request(widget, 480, 300)
        UI.setDrawFunc(widget) { [weak self] cr, w, h in self?.draw(cr, Double(w), Double(h)) }

        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        Signal.connectScroll(UnsafeMutableRawPointer(scroll), "scroll") { [weak self] dx, dy in
            guard let self else { return false }
            let controller = ts_controller(gp(scroll))
            var x = 0.0, y = 0.0
            if let event = gtk_event_controller_get_current_event(controller) { _ = gdk_event_get_position(event, &x, &y) }
            let state = gtk_event_controller_get_current_event_state(controller)
            if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 {
                self.setZoom(self.viewport.zoom * exp(-dy * 0.15), anchor: Point(x, y))
            } else if self.viewport.isZoomed {
                self.viewport.scroll(dx: dx * 40, dy: dy * 40)
                gtk_widget_queue_draw(self.widget)
            } else {
                return false
            }
            return true
        }
        gtk_widget_add_controller(widget, ts_controller(gp(scroll)))

        let drag = gtk_gesture_drag_new()!
        Signal.connectPoint(gp(drag), "drag-begin") { [weak self] _, _ in self?.dragStart = Point(0, 0) }
        Signal.connectPoint(gp(drag), "drag-update") { [weak self] dx, dy in
            guard let self, let last = self.dragStart, self.viewport.isZoomed else { return }
            // Dragging moves the sheet with the hand.
            self.viewport.scroll(dx: last.x - dx, dy: last.y - dy)
            self.dragStart = Point(dx, dy)
            gtk_widget_queue_draw(self.widget)
        }
        Signal.connectPoint(gp(drag), "drag-end") { [weak self] _, _ in self?.dragStart = nil }
        gtk_widget_add_controller(widget, ts_controller(gp(drag)))
    }

    /// Zooms about the middle of the view (the buttons).
    func zoom(by factor: Double) {
        setZoom(viewport.zoom * factor, anchor: Point(viewport.widgetWidth / 2, viewport.widgetHeight / 2))
    }

    private func setZoom(_ zoom: Double, anchor: Point) {
        viewport.setZoom(zoom, anchor: anchor)
        gtk_widget_queue_draw(widget)
    }

    private func draw(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        cairo_set_source_rgb(cr, 0.86, 0.83, 0.77)
        cairo_paint(cr)
        guard meta.width > 0, meta.height > 0 else { return }
        viewport.resize(width: w, height: h)
        let scale = viewport.scale, origin = viewport.origin
        guard scale > 0, scale.isFinite else { return }
        cairo_save(cr)
        cairo_translate(cr, origin.x, origin.y)
        cairo_scale(cr, scale, scale)
        SketchRenderer.drawBackground(meta: meta, in: cr)
        // Only what is on screen is drawn, so a close look at a big sketch stays quick.
        SketchRenderer.draw(strokes, in: cr, clip: viewport.visibleCanvasRect)
        cairo_restore(cr)
    }
}
