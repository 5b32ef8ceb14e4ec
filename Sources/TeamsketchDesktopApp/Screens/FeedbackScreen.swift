import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// What the teacher said about one of the pupil's sketches: the sketch
/// big, the grade as stars a child counts, and the teacher's words large.
/// From here the pupil goes on drawing or back to their sketches.
@MainActor
final class FeedbackScreen {
    let widget: Widget

    init(sketch: SketchDocument, feedback: PupilFeedback, nav: any Navigator) {
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toolbar"])
        UI.append(bar, UI.iconButton("go-previous-symbolic", tooltip: `_`("Back to my sketches"), classes: ["tool"]) {
            [weak nav] in nav?.showGallery()
        })
        let title = UI.label(sketch.meta.name, classes: ["sketch-title"])
        gtk_label_set_xalign(ts_label(title), 0)
        gtk_label_set_ellipsize(ts_label(title), PANGO_ELLIPSIZE_END)
        UI.append(bar, title)
        UI.append(widget, bar)

        let picture = gtk_picture_new()!
        gtk_widget_set_size_request(picture, 480, 300)
        if let png = try? SketchExport.pngData(sketch, width: 640), let texture = Texture.png(Data(png)) {
            gtk_picture_set_paintable(ts_picture(picture), texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
        }
        UI.accessibleLabel(picture, sketch.meta.name)

        let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18, [picture])
        UI.center(content)
        UI.expand(content)
        if let stars = feedback.stars {
            let row = Self.stars(stars)
            gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
            UI.append(content, row)
        }
        if !feedback.comment.isEmpty {
            let who = UI.label(feedback.forTeam ? `_`("Your teacher says to your team:") : `_`("Your teacher says:"),
                               classes: ["form-label"])
            let said = UI.label(feedback.comment, classes: ["teacher-words"])
            gtk_label_set_wrap(ts_label(said), 1)
            gtk_label_set_max_width_chars(ts_label(said), 50)
            // Beside its speaker a wrapping label would take its narrowest
            // width: a short comment stays on one line.
            gtk_label_set_width_chars(ts_label(said), Int32(min(feedback.comment.count, 40)))
            gtk_label_set_justify(ts_label(said), GTK_JUSTIFY_CENTER)
            UI.append(content, who)
            let comment = feedback.comment
            let read = ReadAloudButton.make(nav.voice) { comment }
            let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [said, read])
            gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
            UI.append(content, row)
        }
        let back = UI.button(`_`("My sketches"), icon: "go-previous-symbolic", classes: ["choice"]) { [weak nav] in
            nav?.showGallery()
        }
        let draw = UI.button(`_`("Draw on"), icon: "document-edit-symbolic", classes: ["choice", "suggested-action"]) {
            [weak nav] in nav?.open(sketch)
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, draw])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(content, actions)
        UI.append(widget, content)
    }

    /// Five stars, `filled` of them yellow: the grade without a number.
    static func stars(_ filled: Int, size: String = "big") -> Widget {
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        for i in 0..<GradeRecord.grades.count {
            UI.append(row, UI.label("★", classes: ["grade-star", size, i < filled ? "filled" : "empty"]))
        }
        UI.accessibleLabel(row, String(format: _n("%d star of 5", "%d stars of 5", filled), filled))
        return row
    }
}
