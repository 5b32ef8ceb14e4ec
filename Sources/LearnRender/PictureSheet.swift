import CCairo
import Foundation
import LearnModel

/// The sheet a teacher prints when giving out picture passwords: one card
/// per pupil with their name and their three pictures in order, ten to an
/// A4 page, to cut out and hand to each child.
public enum PictureSheet {
    public struct Card: Hashable, Sendable {
        public var name: String
        public var pictures: [SessionSign.Picture]
        public init(name: String, pictures: [SessionSign.Picture]) { self.name = name; self.pictures = pictures }
    }

    static let page = (width: 595.0, height: 842.0)   // A4 in points
    static let columns = 2, rows = 5
    public static let cardsPerPage = columns * rows

    public static func pdf(title: String, cards: [Card]) throws(SketchIOError) -> [UInt8] {
        try StreamDrawing.pdf(width: page.width, height: page.height, title: title) { cr in
            let margin = 30.0
            let cardWidth = (page.width - 2 * margin) / Double(columns)
            let cardHeight = (page.height - 2 * margin) / Double(rows)
            for (i, card) in cards.enumerated() {
                if i > 0 && i % cardsPerPage == 0 { cairo_show_page(cr) }
                let slot = i % cardsPerPage
                let x = margin + Double(slot % columns) * cardWidth
                let y = margin + Double(slot / columns) * cardHeight
                draw(card, in: cr, x: x, y: y, width: cardWidth, height: cardHeight)
            }
        }
    }

    private static func draw(_ card: Card, in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        // A dashed frame to cut along.
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.8)
        var dash = [4.0, 3.0]
        cairo_set_dash(cr, &dash, 2, 0)
        cairo_rectangle(cr, x + 4, y + 4, width - 8, height - 8)
        cairo_stroke(cr)
        cairo_restore(cr)
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.2)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 18)
        cairo_move_to(cr, x + 16, y + 34)
        cairo_show_text(cr, String(card.name.prefix(40)))
        let size = min((width - 48) / 3, height - 70)
        for (n, picture) in card.pictures.prefix(3).enumerated() {
            let px = x + 16 + Double(n) * (size + 8)
            let py = y + 48
            SessionSignRenderer.drawPicture(picture, in: cr, x: px, y: py, size: size)
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.2)
            cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cr, 14)
            cairo_move_to(cr, px + 2, py + 14)
            cairo_show_text(cr, String(n + 1))
        }
    }
}
