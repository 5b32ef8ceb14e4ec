import CGtk
import Foundation
import LearnModel

/// One person in a host's lobby, in the lobby before the start and in the
/// requests on the host's canvas after it: their picture, an eye for a
/// watcher, their name (marked when someone else asked for the same one),
/// and big buttons to let them in (while they wait) or send them away.
@MainActor
enum MemberRow {
    static func make(_ m: LobbyMember, avatar: [UInt8]?, accept: @escaping @MainActor () -> Void,
                     decline: @escaping @MainActor () -> Void) -> Widget {
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["member-row"])
        UI.append(row, Avatar.make(name: m.name, png: avatar, size: 48))
        if m.role == .observer {
            // Watchers ask like painters: an eye tells the teacher this one
            // would see the whole sketch and everyone's names.
            let eye = gtk_image_new_from_icon_name("view-reveal-symbolic")!
            gtk_image_set_pixel_size(ts_image(eye), 32)
            gtk_widget_set_tooltip_text(eye, `_`("Wants to watch"))
            UI.append(row, eye)
        }
        var text = m.name
        if m.role == .observer { text += " · " + `_`("watching") }
        if !m.connected { text += " · " + `_`("away") }
        let name = UI.label(text, classes: ["card-name"])
        gtk_label_set_xalign(ts_label(name), 0)
        let texts = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [name])
        gtk_widget_set_hexpand(texts, 1)
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        if m.sharesName {
            // Someone else asked for this name too: both rows say so, so the
            // teacher checks who is who before letting either in.
            let warning = UI.label("⚠ " + `_`("Someone else has asked for this name too"), classes: ["hint"])
            gtk_label_set_xalign(ts_label(warning), 0)
            UI.append(texts, warning)
        }
        UI.append(row, texts)
        if m.state == .pending {
            let tooltip = m.role == .observer ? String(format: `_`("Let %@ watch"), m.name)
                : String(format: `_`("Let %@ join"), m.name)
            UI.append(row, UI.iconButton("emblem-ok-symbolic", tooltip: tooltip, classes: ["tool", "accept"], action: accept))
        }
        UI.append(row, UI.iconButton("window-close-symbolic", tooltip: String(format: `_`("Send %@ away"), m.name),
                                     classes: ["tool", "decline"], action: decline))
        return row
    }
}
