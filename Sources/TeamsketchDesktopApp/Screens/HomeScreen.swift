import CGtk
import LearnModel
import TeamsketchCore

/// The start screen: big buttons, icons first (pupils rarely read).
@MainActor
final class HomeScreen {
    let widget: Widget
    private let syncStatus: Widget
    /// The pupil's picture and name: tapping opens "Me".
    private let me: Widget
    private var activityButtons: [ClassSettingsRecord.Activity: [Widget]] = [:]

    init(nav: any Navigator, settings: ClassroomSettings, profile: Profile) {
        let title = UI.label(`_`("Teamsketch"), classes: ["home-title"])
        me = gtk_button_new()!
        UI.style(me, ["me-button"])
        gtk_widget_set_halign(me, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(me, `_`("Me: my name and my picture"))
        Signal.connect(UI.raw(me), "clicked") { [weak nav] in nav?.showProfile() }
        let sketchButtons = [
            UI.button(`_`("New sketch"), icon: "document-new-symbolic", classes: ["big-button", "suggested-action"]) {
                [weak nav] in nav?.showNewSketch()
            },
            UI.button(`_`("Draw together"), icon: ActivityCatalogue.teamSketch.icon, classes: ["big-button"]) {
                [weak nav] in nav?.showNewSketch(together: true)
            },
            UI.button(`_`("Join"), icon: "network-workgroup-symbolic", classes: ["big-button"]) {
                [weak nav] in nav?.showJoin()
            },
            UI.button(`_`("Open"), icon: "document-open-symbolic", classes: ["big-button"]) {
                [weak nav] in nav?.showGallery()
            },
        ]
        let wordPost = UI.button(`_`("Buchstaben Post"), icon: ActivityCatalogue.wordPost.icon, classes: ["big-button"]) {
            [weak nav] in nav?.showWordPost()
        }
        activityButtons = [.teamSketch: sketchButtons, .wordPost: [wordPost]]
        // One row; with large text (the desktop's text size) two, so the
        // window never grows wider than the screen.
        let rows = TextScale.rows(of: sketchButtons + [wordPost], scale: TextScale.current)
        let buttons = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 32, rows.map { row in
            let line = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, row)
            gtk_widget_set_halign(line, GTK_ALIGN_CENTER)
            return line
        })
        UI.center(buttons)
        // The school server is the teacher's business: a small button and
        // a quiet line under the pupils' big ones.
        let school = UI.iconButton("network-server-symbolic", tooltip: `_`("School server"), classes: ["school-button"]) {
            [weak nav] in nav?.showSchool()
        }
        syncStatus = UI.label("", classes: ["sync-status"])
        gtk_label_set_wrap(ts_label(syncStatus), 0)
        let teacher = UI.iconButton("preferences-system-symbolic", tooltip: `_`("Teacher"), classes: ["school-button"]) {
            [weak nav] in nav?.showTeacher()
        }
        let schoolRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [teacher, school, syncStatus])
        gtk_widget_set_halign(schoolRow, GTK_ALIGN_CENTER)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 40, [me, title, buttons, schoolRow])
        UI.center(widget)
        showActivities(settings)
        // Who is next is known once the school link is up (`showHome`).
        showMe(profile)
    }

    /// `picturesNext`: "Me" leads to the pupils' picture sign-in (a class
    /// laptop with nobody signed in), so the button asks who is there
    /// instead of showing the last name used.
    func showMe(_ profile: Profile, picturesNext: Bool = false) {
        if picturesNext {
            let face = gtk_image_new_from_icon_name("avatar-default-symbolic")!
            gtk_image_set_pixel_size(ts_image(face), 48)
            let text = `_`("Who are you? Sign in with your pictures")
            gtk_button_set_child(ts_button(me), UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [
                face, UI.label(text, classes: ["card-name"]),
            ]))
            UI.accessibleLabel(me, text)
            return
        }
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [
            Avatar.make(name: profile.name, png: profile.avatarPNG.map { [UInt8]($0) }, size: 56),
            UI.label(profile.name, classes: ["card-name"]),
        ])
        gtk_button_set_child(ts_button(me), row)
        UI.accessibleLabel(me, String(format: `_`("Me: %@"), profile.name))
    }

    /// Only the activities the class offers are on the start screen.
    func showActivities(_ settings: ClassroomSettings) {
        for (activity, buttons) in activityButtons {
            for b in buttons { gtk_widget_set_visible(b, settings.offers(activity) ? 1 : 0) }
        }
    }

    func showSyncStatus(_ status: SyncStatus) {
        UI.setText(syncStatus, SyncStatusText.text(status))
    }
}
