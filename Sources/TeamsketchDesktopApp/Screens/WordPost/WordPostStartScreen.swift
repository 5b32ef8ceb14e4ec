import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// Choosing the word pool and how to play. Word lists are made, imported
/// and exported in the teacher's window only, not on the pupils' screen.
@MainActor
final class WordPostStartScreen {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private var pool: WordPool?
    private let status: Widget

    /// `offer`: the word lists this pupil may play (a signed-in pupil's
    /// class may have lists from the teacher: then only those, the first
    /// chosen).
    init(nav: any Navigator, offer: WordPoolCatalogue.Offer) {
        self.nav = nav
        status = UI.label("", classes: ["hint"])
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 24)
        UI.center(widget)
        UI.append(widget, UI.label(`_`("Buchstaben Post"), classes: ["home-title"]))

        let pools = offer.pools
        for problem in offer.problems { FileHandle.standardError.write(Data((problem.logLine + "\n").utf8)) }
        if pools.isEmpty { UI.setText(status, `_`("The word lists could not be loaded.")) }
        if !offer.problems.isEmpty { UI.setText(status, Self.text(forMissing: offer.problems)) }
        pool = offer.chosen
        FileHandle.standardError.write(Data("word lists: \(pools.map(\.id).joined(separator: ",")) chosen=\(pool?.id ?? "-") fromTeacher=\(offer.fromTeacher)\n".utf8))
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        var first: Widget?
        for p in pools {
            // Each list has its picture, so a child finds the class's list
            // without reading its name.
            let b = gtk_toggle_button_new()!
            gtk_button_set_child(ts_button(b), PoolPicture.make(p, size: 56))
            UI.accessibleLabel(b, WordPoolCatalogue.title(of: p))
            UI.style(b, ["choice", "pool-choice"])
            gtk_widget_set_tooltip_text(b, String(format: _n("%d word", "%d words", p.items.count), p.items.count))
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            if p.id == pool?.id { gtk_toggle_button_set_active(ts_toggle(b), 1) }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.pool = p }
            }
            UI.append(row, b)
        }
        UI.append(widget, UI.label(offer.fromTeacher ? `_`("Your teacher's words") : `_`("Words"), classes: ["form-label"]))
        UI.append(widget, row)

        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak nav] in nav?.showHome() }
        // One child for alone, several for together: the pictures say
        // which is which, so nothing asks afterwards.
        let alone = UI.button(`_`("Play alone"), icon: "avatar-default-symbolic", classes: ["big-button", "suggested-action"]) {
            [weak self] in self?.playAlone()
        }
        let together = UI.button(`_`("Play together"), icon: "system-users-symbolic", classes: ["big-button"]) {
            [weak self] in
            guard let self, let pool = self.pool else { return }
            if let problem = WordPoolLimits.problem(in: pool) {
                self.nav?.showError(WordPoolTooBig.title, WordPoolTooBig(problem: problem))
                return
            }
            self.nav?.hostWordPost(pool: pool)
        }
        let join = UI.button(`_`("Join"), icon: "network-workgroup-symbolic", classes: ["big-button"]) {
            [weak nav] in nav?.showJoin(activity: WordPostLobbyUI())
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, alone, together, join])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        UI.append(widget, status)
    }

    private static func text(forMissing problems: [ResourceProblem]) -> String {
        String(format: `_`("A built-in word list is missing or damaged and is not offered (%@)."), ResourceNotice.names(problems))
            + " " + ResourceNotice.reinstallAdvice
    }

    private func playAlone() {
        guard let pool else { return }
        nav?.startWordPost(pool: pool)
    }
}
