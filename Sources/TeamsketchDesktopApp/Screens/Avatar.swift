import CGtk
import Foundation
import LearnModel
import LearnRender

/// A pupil's round badge: the picture they drew of themselves, or the
/// first letter of their name in a colour derived from it.
@MainActor
enum Avatar {
    private static let palette: [(Double, Double, Double)] = [
        (0.89, 0.13, 0.11), (1.0, 0.55, 0.10), (0.12, 0.48, 0.20), (0.10, 0.25, 0.66),
        (0.56, 0.25, 0.77), (0.96, 0.44, 0.71), (0.55, 0.35, 0.17), (0.31, 0.76, 0.97),
    ]

    static func make(name: String, png: [UInt8]? = nil, size: Int32) -> Widget {
        // Decoded once here, not on every frame.
        make(name: name, picture: png.flatMap(image), size: size)
    }

    /// A badge for a picture decoded elsewhere (the teacher's lists decode
    /// theirs away from the main thread).
    static func make(name: String, picture: CairoImage?, size: Int32) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(ts_drawing_area(area), size)
        gtk_drawing_area_set_content_height(ts_drawing_area(area), size)
        UI.setDrawFunc(area) { cr, w, h in
            let c = (Double(w) / 2, Double(h) / 2), r = Double(min(w, h)) / 2
            if let picture { draw(picture, centre: c, radius: r, in: cr) } else { draw(name: name, centre: c, radius: r, in: cr) }
        }
        UI.accessibleLabel(area, name)
        return area
    }

    /// The picture, decoded, when the bytes pass `AvatarPNG`'s checks
    /// (they may come from any device on the LAN).
    nonisolated static func image(_ png: [UInt8]) -> CairoImage? {
        guard AvatarPNG.isAcceptable(png) else { return nil }
        return try? CairoImage(png: png)
    }

    /// A drawn picture in a white ring, clipped round.
    static func draw(_ picture: CairoImage, centre c: (Double, Double), radius r: Double, in cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_arc(cr, c.0, c.1, r, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_arc(cr, c.0, c.1, r * 0.92, 0, 2 * .pi)
        cairo_clip(cr)
        let side = Double(max(picture.width, picture.height))
        let k = 2 * r * 0.92 / side
        cairo_translate(cr, c.0 - Double(picture.width) * k / 2, c.1 - Double(picture.height) * k / 2)
        cairo_scale(cr, k, k)
        cairo_set_source_surface(cr, picture.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Draws the letter badge into any Cairo context (lobby rows, trains).
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
