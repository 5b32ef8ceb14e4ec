import CGtk
import Foundation
import LearnModel

/// Choosing the word pool and how to play.
@MainActor
final class WordPostStartScreen {
    let widget: Widget
    private weak var app: TeamsketchApp?
    private var pool: WordPool?
    private let status: Widget

    init(app: TeamsketchApp) {
        self.app = app
        status = UI.label("", classes: ["hint"])
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 24)
        UI.center(widget)
        UI.append(widget, UI.label(`_`("Buchstaben Post"), classes: ["home-title"]))

        let pools: [WordPool]
        do {
            pools = try BuiltInPools.all()
        } catch {
            pools = []
            UI.setText(status, `_`("The word lists could not be loaded."))
        }
        let german = (ProcessInfo.processInfo.environment["LANGUAGE"] ?? ProcessInfo.processInfo.environment["LANG"] ?? "")
            .hasPrefix("de")
        pool = pools.first { $0.language == (german ? "de" : "en") } ?? pools.first
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        var first: Widget?
        for p in pools {
            let b = gtk_toggle_button_new_with_label(p.language == "de" ? "Deutsch" : p.language == "en" ? "English" : p.name)!
            UI.style(b, ["choice"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            if p.id == pool?.id { gtk_toggle_button_set_active(ts_toggle(b), 1) }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.pool = p }
            }
            UI.append(row, b)
        }
        UI.append(widget, UI.label(`_`("Words"), classes: ["form-label"]))
        UI.append(widget, row)

        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak app] in app?.showHome() }
        let alone = UI.button(`_`("Play"), icon: "media-playback-start-symbolic", classes: ["big-button", "suggested-action"]) {
            [weak self] in self?.playAlone()
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, alone])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        UI.append(widget, status)
    }

    /// Buchstaben Post is made for several players; one alone is asked first.
    private func playAlone() {
        guard let app, let pool else { return }
        Alert.show(parent: app.window, title: `_`("Play alone?"),
                   message: `_`("Nobody else is playing with you. You get all the letters yourself."), choices: [
                    .init(`_`("Back"), classes: []),
                    .init(`_`("Play alone"), classes: ["suggested-action"]) { [weak app] in
                        app?.startWordPost(pool: pool)
                    },
                   ])
    }
}
