import CGtk
import TeamsketchCore

/// The start screen: big buttons, icons first (pupils rarely read).
@MainActor
final class HomeScreen {
    let widget: Widget
    private let syncStatus: Widget

    init(app: TeamsketchApp) {
        let title = UI.label(`_`("Teamsketch"), classes: ["home-title"])
        let buttons = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [
            UI.button(`_`("New sketch"), icon: "document-new-symbolic", classes: ["big-button", "suggested-action"]) {
                [weak app] in app?.showNewSketch()
            },
            UI.button(`_`("Draw together"), icon: "system-users-symbolic", classes: ["big-button"]) {
                [weak app] in app?.showNewSketch(together: true)
            },
            UI.button(`_`("Join"), icon: "network-workgroup-symbolic", classes: ["big-button"]) {
                [weak app] in app?.showJoin()
            },
            UI.button(`_`("Open"), icon: "document-open-symbolic", classes: ["big-button"]) {
                [weak app] in app?.showGallery()
            },
            UI.button(`_`("Buchstaben Post"), icon: "mail-send-symbolic", classes: ["big-button"]) {
                [weak app] in app?.showWordPost()
            },
        ])
        UI.center(buttons)
        // The school server is the teacher's business: a small button and
        // a quiet line under the pupils' big ones.
        let school = UI.iconButton("network-server-symbolic", tooltip: `_`("School server"), classes: ["school-button"]) {
            [weak app] in app?.showSchool()
        }
        syncStatus = UI.label("", classes: ["sync-status"])
        gtk_label_set_wrap(ts_label(syncStatus), 0)
        let schoolRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [school, syncStatus])
        gtk_widget_set_halign(schoolRow, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 48, [title, buttons, schoolRow])
        UI.center(widget)
    }

    func showSyncStatus(_ status: SyncStatus) {
        UI.setText(syncStatus, SyncStatusText.text(status))
    }
}
