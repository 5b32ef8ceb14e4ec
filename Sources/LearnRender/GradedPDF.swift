import CCairo
import Foundation
import LearnModel

/// A sketch as a PDF with the teacher's words under it (grade and
/// comment): one page, the sketch at the top at its own size, the text in
/// a strip below, so the printout and the file are one piece of paper.
public enum GradedPDF {
    static let fontSize = 22.0
    static let lineHeight = 32.0
    static let margin = 36.0
    /// Lines longer than this are broken at spaces (a comment is at most
    /// 2,000 characters, so at most about 25 lines).
    static let lineCharacters = 110

    public static func data(_ doc: SketchDocument, caption: [String]) throws(SketchIOError) -> [UInt8] {
        let lines = caption.flatMap { wrap($0, at: lineCharacters) }
        let height = doc.meta.height + margin * 2 + lineHeight * Double(lines.count)
        return try StreamDrawing.pdf(width: doc.meta.width, height: height, title: doc.meta.name) { cr in
            SketchExport.drawWhole(doc, in: cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_rectangle(cr, 0, doc.meta.height, doc.meta.width, height - doc.meta.height)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.2)
            cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, fontSize)
            for (i, line) in lines.enumerated() {
                cairo_move_to(cr, margin, doc.meta.height + margin + lineHeight * Double(i + 1) - (lineHeight - fontSize))
                cairo_show_text(cr, line)
            }
        }
    }

    /// `text` in lines of at most `limit` characters, broken at spaces where
    /// there are any; the text's own line breaks are kept.
    public static func wrap(_ text: String, at limit: Int) -> [String] {
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = Substring(word)
                while word.count > limit {
                    if !line.isEmpty { out.append(line); line = "" }
                    out.append(String(word.prefix(limit)))
                    word = word.dropFirst(limit)
                }
                if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= limit {
                    line += " " + word
                } else {
                    out.append(line)
                    line = String(word)
                }
            }
            out.append(line)
        }
        return out
    }
}
