import CGtk
import Foundation
import TeamsketchCore

/// "How to play" in pictures: a letter tile with an arrow into a slot, and
/// one into a teammate's train, with very short captions, and a speaker in
/// its corner that reads them aloud. A tap on the picture closes it.
@MainActor
final class HelpOverlay {
    let widget: Widget

    /// The captions, as drawn and as read aloud.
    nonisolated static var captions: [String] {
        [`_`("Put the letter into your word"), `_`("…or send it to a friend's train"), `_`("Tap to close")]
    }

    init(speech: SpeechClient, language: String) {
        widget = gtk_overlay_new()!
        UI.expand(widget)
        gtk_widget_set_visible(widget, 0)
        let area = gtk_drawing_area_new()!
        UI.expand(area)
        gtk_overlay_set_child(ts_overlay(widget), area)
        let read = ReadAloudButton.make(speech, language: language) { Self.captions.joined(separator: ". ") }
        gtk_widget_set_halign(read, GTK_ALIGN_END)
        gtk_widget_set_valign(read, GTK_ALIGN_START)
        gtk_widget_set_margin_top(read, 24)
        gtk_widget_set_margin_end(read, 24)
        gtk_overlay_add_overlay(ts_overlay(widget), read)
        gtk_drawing_area_set_draw_func(ts_drawing_area(area), { _, cr, w, h, _ in
            guard let cr else { return }
            let W = Double(w), H = Double(h)
            cairo_set_source_rgba(cr, 0.98, 0.97, 0.94, 0.96)
            cairo_paint(cr)
            func tile(_ x: Double, _ y: Double, _ fill: (Double, Double, Double)) {
                cairo_rectangle(cr, x - 36, y - 36, 72, 72)
                cairo_set_source_rgb(cr, fill.0, fill.1, fill.2)
                cairo_fill_preserve(cr)
                cairo_set_source_rgb(cr, 0.17, 0.17, 0.43)
                cairo_set_line_width(cr, 3)
                cairo_stroke(cr)
            }
            func arrow(_ a: (Double, Double), _ b: (Double, Double)) {
                cairo_set_source_rgb(cr, 0.89, 0.13, 0.11)
                cairo_set_line_width(cr, 8)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
                cairo_move_to(cr, a.0, a.1)
                cairo_curve_to(cr, a.0, (a.1 + b.1) / 2 - 60, b.0, (a.1 + b.1) / 2 - 60, b.0, b.1)
                cairo_stroke(cr)
                cairo_arc(cr, b.0, b.1, 14, 0, 2 * .pi)
                cairo_fill(cr)
            }
            func caption(_ text: String, _ x: Double, _ y: Double) {
                let layout = pango_cairo_create_layout(cr)!
                let font = pango_font_description_from_string("Sans Bold 20")!
                pango_layout_set_font_description(layout, font)
                pango_font_description_free(font)
                pango_layout_set_text(layout, text, -1)
                var ink = PangoRectangle(), logical = PangoRectangle()
                pango_layout_get_pixel_extents(layout, &ink, &logical)
                cairo_set_source_rgb(cr, 0.17, 0.17, 0.43)
                cairo_move_to(cr, x - Double(logical.width) / 2, y)
                pango_cairo_show_layout(cr, layout)
                g_object_unref(gp(layout))
            }
            // Left picture: tile into slot. Right picture: tile into a train.
            tile(W * 0.25, H * 0.65, (1.0, 0.83, 0.25))
            tile(W * 0.25, H * 0.3, (0.97, 0.95, 0.90))
            arrow((W * 0.25 + 40, H * 0.65 - 30), (W * 0.25 + 40, H * 0.3 + 40))
            let captions = HelpOverlay.captions
            caption(captions[0], W * 0.25, H * 0.78)
            tile(W * 0.72, H * 0.65, (1.0, 0.83, 0.25))
            cairo_set_source_rgb(cr, 0.89, 0.13, 0.11)
            cairo_rectangle(cr, W * 0.72 - 70, H * 0.3 - 30, 140, 60)
            cairo_fill(cr)
            arrow((W * 0.72 + 40, H * 0.65 - 30), (W * 0.72 + 60, H * 0.3 + 36))
            caption(captions[1], W * 0.72, H * 0.78)
            caption(captions[2], W / 2, H * 0.9)
        }, nil, nil)
        let click = gtk_gesture_click_new()!
        Signal.connectClick(gp(click), "released") { [weak self] _, _, _ in self?.toggle() }
        gtk_widget_add_controller(area, ts_controller(gp(click)))
    }

    func toggle() {
        gtk_widget_set_visible(widget, gtk_widget_get_visible(widget) != 0 ? 0 : 1)
    }
}
