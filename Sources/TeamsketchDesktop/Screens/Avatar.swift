import CGtk
import Foundation

/// A round badge with the first letter of a name, in a colour derived from
/// it, until pupils draw their own profile pictures.
@MainActor
enum Avatar {
    private static let palette: [(Double, Double, Double)] = [
        (0.89, 0.13, 0.11), (1.0, 0.55, 0.10), (0.12, 0.48, 0.20), (0.10, 0.25, 0.66),
        (0.56, 0.25, 0.77), (0.96, 0.44, 0.71), (0.55, 0.35, 0.17), (0.31, 0.76, 0.97),
    ]

    static func make(name: String, size: Int32) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(ts_drawing_area(area), size)
        gtk_drawing_area_set_content_height(ts_drawing_area(area), size)
        UI.setDrawFunc(area) { cr, w, h in
            draw(name: name, centre: (Double(w) / 2, Double(h) / 2), radius: Double(min(w, h)) / 2, in: cr)
        }
        return area
    }

    /// Draws the badge into any Cairo context (lobby rows, trains).
    static func draw(name: String, centre c: (Double, Double), radius r: Double, in cr: OpaquePointer) {
        let letter = String(name.trimmingCharacters(in: .whitespaces).first ?? "?").uppercased()
        let hash = name.unicodeScalars.reduce(UInt32(7)) { ($0 &* 31) &+ $1.value }
        let colour = palette[Int(hash % UInt32(palette.count))]
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_arc(cr, c.0, c.1, r, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
        cairo_arc(cr, c.0, c.1, r * 0.9, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, r)
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, letter, &ext)
        cairo_move_to(cr, c.0 - ext.width / 2 - ext.x_bearing, c.1 - ext.height / 2 - ext.y_bearing)
        cairo_show_text(cr, letter)
    }
}
