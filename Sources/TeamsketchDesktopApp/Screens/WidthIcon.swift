import CGtk
import LearnModel

/// A short line of the pen's width: the fine/broad switch shows rather than says.
@MainActor
enum WidthIcon {
    static func make(width: PenWidth) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(ts_drawing_area(area), 36)
        gtk_drawing_area_set_content_height(ts_drawing_area(area), 36)
        let lineWidth = width == .fine ? 3 : 10
        gtk_drawing_area_set_draw_func(ts_drawing_area(area), { area, cr, w, h, data in
            let lw = data.map { Double(Int(bitPattern: $0)) } ?? 2
            var color = GdkRGBA()
            // gtk_widget_get_color is 4.10; the style context is the 4.8 way.
            gtk_style_context_get_color(gtk_widget_get_style_context(ts_widget(area)), &color)
            cairo_set_source_rgba(cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
            cairo_set_line_width(cr, lw)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, 6, Double(h) - 8)
            cairo_curve_to(cr, Double(w) * 0.4, 4, Double(w) * 0.6, Double(h) - 4, Double(w) - 6, 8)
            cairo_stroke(cr)
        }, UnsafeMutableRawPointer(bitPattern: Int(lineWidth)), nil)
        return area
    }
}
