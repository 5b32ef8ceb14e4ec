import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// A word list as a child picks it: its picture (the same on every device,
/// worked out from the list's id) above its name, so the teacher can say
/// "the list with the snail" to children who cannot read the name yet.
@MainActor
enum PoolPicture {
    static func make(_ pool: WordPool, size: Int32) -> Widget {
        let picture = SessionSign.picture(for: pool.id)
        let area = gtk_drawing_area_new()!
        gtk_widget_set_size_request(area, size, size)
        gtk_widget_set_halign(area, GTK_ALIGN_CENTER)
        UI.setDrawFunc(area) { cr, w, h in
            SessionSignRenderer.drawPicture(picture, in: cr, x: 2, y: 2, size: Double(min(w, h)) - 4)
        }
        let box = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4, [area, UI.label(WordPoolCatalogue.title(of: pool))])
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        return box
    }
}
