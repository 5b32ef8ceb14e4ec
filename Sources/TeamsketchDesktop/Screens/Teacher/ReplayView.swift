import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The replay: the sketch as it was at the player's position, fitted into
/// the area. It only paints; the player decides what is shown.
@MainActor
final class ReplayView {
    let widget: Widget
    private let meta: SketchMeta
    var strokes: [Stroke] = [] {
        didSet { gtk_widget_queue_draw(widget) }
    }

    init(meta: SketchMeta) {
        self.meta = meta
        widget = gtk_drawing_area_new()!
        UI.expand(widget)
        gtk_widget_set_size_request(widget, 480, 300)
        UI.setDrawFunc(widget) { [weak self] cr, w, h in self?.draw(cr, Double(w), Double(h)) }
    }

    private func draw(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        cairo_set_source_rgb(cr, 0.86, 0.83, 0.77)
        cairo_paint(cr)
        guard meta.width > 0, meta.height > 0 else { return }
        let scale = min((w - 16) / meta.width, (h - 16) / meta.height)
        guard scale > 0, scale.isFinite else { return }
        cairo_save(cr)
        cairo_translate(cr, (w - meta.width * scale) / 2, (h - meta.height * scale) / 2)
        cairo_scale(cr, scale, scale)
        SketchRenderer.drawBackground(meta: meta, in: cr)
        SketchRenderer.draw(strokes, in: cr, clip: Rect(x: 0, y: 0, width: meta.width, height: meta.height))
        cairo_restore(cr)
    }
}
