import CGtk
import LearnModel
import LearnRender
import TeamsketchCore

/// Paints a canvas engine's sheet: the grey desk around it, the ink tiles
/// on whole device pixels (so they meet without seams) and the own stroke's
/// tail on top. The window's canvas paints with it, and the class wall's
/// bench paints the same way into an image, so the bench measures what the
/// screen costs.
package enum SheetPainter {
    package static func paint(_ engine: CanvasEngine, tiles: InkTileCache, on cr: OpaquePointer) {
        let v = engine.viewport, s = v.scale, device = engine.deviceScale
        let o = Point((v.origin.x * device).rounded() / device, (v.origin.y * device).rounded() / device)
        cairo_set_source_rgb(cr, 0.85, 0.83, 0.78)
        cairo_paint(cr)
        cairo_save(cr)
        cairo_rectangle(cr, o.x, o.y, v.canvasWidth * s, v.canvasHeight * s)
        cairo_clip(cr)
        tiles.paint(engine.tilesToPaint, on: cr, origin: o, scale: s)
        if let tail = engine.liveTail {
            cairo_translate(cr, o.x, o.y)
            cairo_scale(cr, s, s)
            SketchRenderer.draw(tail, in: cr)
        }
        cairo_restore(cr)
    }
}
