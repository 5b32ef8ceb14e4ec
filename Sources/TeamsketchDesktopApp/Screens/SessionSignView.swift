import CGtk
import Foundation
import LearnModel
import LearnRender

/// A session's sign on screen (the host's lobby, a join card): the pictures
/// are drawn by `SessionSignRenderer`; a copy of another card's session id
/// gets the renderer's warning on top. Its accessible name says the sign in
/// words, for a screen reader and for the teacher reading it out.
@MainActor
enum SessionSignView {
    static func make(_ sign: SessionSign, height: Int32, copy: Bool = false) -> Widget {
        let area = gtk_drawing_area_new()!
        let width = Int32((Double(height) * SessionSignRenderer.aspect).rounded(.up))
        gtk_drawing_area_set_content_width(ts_drawing_area(area), width)
        gtk_drawing_area_set_content_height(ts_drawing_area(area), height)
        gtk_widget_set_halign(area, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(area, GTK_ALIGN_CENTER)
        UI.setDrawFunc(area) { cr, w, h in
            SessionSignRenderer.draw(sign, in: cr, x: 0, y: 0, width: Double(w), height: Double(h))
            if copy { SessionSignRenderer.drawCopyWarning(in: cr, x: 0, y: 0, width: Double(w), height: Double(h)) }
        }
        UI.accessibleLabel(area, words(sign))
        gtk_widget_set_tooltip_text(area, words(sign))
        return area
    }

    /// "Green: boat and mushroom".
    static func words(_ sign: SessionSign) -> String {
        String(format: `_`("%@: %@ and %@"), sign.colour.localizedName, sign.first.localizedName, sign.second.localizedName)
    }
}
