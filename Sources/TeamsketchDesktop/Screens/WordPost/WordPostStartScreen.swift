import CGtk
import Foundation
import LearnModel
import TeamsketchCore

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

        let offer = app.wordPools.offer()
        let pools = offer.pools
        for problem in offer.problems { FileHandle.standardError.write(Data((problem.logLine + "\n").utf8)) }
        if pools.isEmpty { UI.setText(status, `_`("The word lists could not be loaded.")) }
        if !offer.problems.isEmpty { UI.setText(status, Self.text(forMissing: offer.problems)) }
        pool = offer.chosen
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        var first: Widget?
        for p in pools {
            let b = gtk_toggle_button_new_with_label(WordPoolCatalogue.title(of: p))!
            UI.style(b, ["choice"])
            gtk_widget_set_tooltip_text(b, String(format: _n("%d word", "%d words", p.items.count), p.items.count))
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            if p.id == pool?.id { gtk_toggle_button_set_active(ts_toggle(b), 1) }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.pool = p }
            }
            UI.append(row, b)
        }
        UI.append(widget, UI.label(`_`("Words"), classes: ["form-label"]))
        UI.append(widget, row)
        let csv = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [
            UI.button(`_`("Import words (CSV)…"), classes: ["choice"]) { [weak self] in self?.importCSV() },
            UI.button(`_`("Export words (CSV)…"), classes: ["choice"]) { [weak self] in self?.exportCSV() },
        ])
        gtk_widget_set_halign(csv, GTK_ALIGN_CENTER)
        UI.append(widget, csv)

        let back = UI.button(`_`("Back"), icon: "go-previous-symbolic", classes: ["big-button"]) { [weak app] in app?.showHome() }
        // One child for alone, several for together: the pictures say
        // which is which, so nothing asks afterwards.
        let alone = UI.button(`_`("Play alone"), icon: "avatar-default-symbolic", classes: ["big-button", "suggested-action"]) {
            [weak self] in self?.playAlone()
        }
        let together = UI.button(`_`("Play together"), icon: "system-users-symbolic", classes: ["big-button"]) {
            [weak self] in
            guard let self, let pool = self.pool else { return }
            if let problem = WordPoolLimits.problem(in: pool) {
                self.app?.showError(WordPoolTooBig.title, WordPoolTooBig(problem: problem))
                return
            }
            self.app?.hostWordPost(pool: pool)
        }
        let join = UI.button(`_`("Join"), icon: "network-workgroup-symbolic", classes: ["big-button"]) {
            [weak app] in app?.showJoin(activity: WordPostLobbyUI())
        }
        let actions = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 32, [back, alone, together, join])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        UI.append(widget, actions)
        UI.append(widget, status)

        // Ctrl+I / Ctrl+E: the CSV buttons from the keyboard.
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, state in
            guard state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            switch gdk_keyval_to_lower(keyval) {
            case UInt32(GDK_KEY_i): self?.importCSV()
            case UInt32(GDK_KEY_e): self?.exportCSV()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(widget, keys)
    }

    private static func text(forMissing problems: [ResourceProblem]) -> String {
        String(format: `_`("A built-in word list is missing or damaged and is not offered (%@)."), ResourceNotice.names(problems))
            + " " + ResourceNotice.reinstallAdvice
    }

    // MARK: CSV

    private func importCSV() {
        guard let app else { return }
        FileChooser.ask(parent: app.window, title: `_`("Import words"), save: false, acceptLabel: `_`("Import"),
                        filters: [.init(name: `_`("Word lists (CSV)"), patterns: ["*.csv"])]) { [weak self] path in
            self?.importCSV(path)
        }
    }

    private func importCSV(_ path: String) {
        guard let app else { return }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            let result = try WordPoolCSV.importItems(contentsOf: path)
            let save: @MainActor () -> Void = { [weak self] in
                let pool = WordPool(id: UUID().uuidString.lowercased(), name: name,
                                    language: self?.pool?.language ?? "de", items: result.items)
                do {
                    try app.store?.savePool(pool)
                    app.showWordPost()
                } catch {
                    app.showError(`_`("The words could not be saved."), error)
                }
            }
            if result.errors.isEmpty { return save() }
            let lines = result.errors.prefix(8).map { String(format: `_`("Line %d: %@"), $0.line, Self.text(for: $0.reason)) }
            let more = result.errors.count > 8 ? "\n" + String(format: `_`("…and %d more."), result.errors.count - 8) : ""
            var choices: [Alert.Choice] = [.init(`_`("Cancel"))]
            if !result.items.isEmpty {
                choices.append(.init(String(format: _n("Import the %d good word", "Import the %d good words", result.items.count), result.items.count),
                                     classes: ["suggested-action"], action: save))
            }
            Alert.show(parent: app.window, title: `_`("Some rows could not be read"),
                       message: lines.joined(separator: "\n") + more, choices: choices)
        } catch WordPoolCSVError.tooLarge(let limit) {
            app.showError(`_`("This file is too big to be a word list."),
                          CSVTooLarge(limitMB: max(1, limit >> 20)))
        } catch WordPoolCSVError.badHeader {
            app.showError(`_`("This is not a word list."), CSVHeaderHint())
        } catch {
            app.showError(`_`("The word list could not be read."), error)
        }
    }

    private func exportCSV() {
        guard let app, let pool else { return }
        WordListExport.ask(pool, app: app)
    }

    static func text(for reason: CSVRowError.Reason) -> String {
        switch reason {
        case .emptyWord: `_`("the word is empty")
        case .emptyHint: `_`("the hint is empty")
        case .missingColumn: `_`("a column is missing (word,hint,priority)")
        case .tooManyColumns: `_`("too many columns")
        case .badPriority(let p): String(format: `_`("“%@” is not a priority from 0 to 100"), p)
        case .whitespaceInWord: `_`("a word cannot contain a space")
        case .wordTooShort: `_`("the word needs at least two letters")
        case .hintContainsWord: `_`("the hint gives the word away")
        case .duplicateWord(let first): String(format: `_`("the word is already on line %d"), first)
        case .unterminatedQuote: `_`("a quote is not closed")
        case .wordTooLong(let n): String(format: `_`("the word is longer than %d letters"), n)
        case .hintTooLong(let n): String(format: `_`("the hint is longer than %d letters"), n)
        case .tooManyRows(let n): String(format: `_`("a word list holds at most %d words; this row and the rest were left out"), n)
        }
    }

    private func playAlone() {
        guard let app, let pool else { return }
        app.startWordPost(pool: pool)
    }
}

/// Shown under "This is not a word list.": what the first line must be.
struct CSVHeaderHint: Error, CustomStringConvertible {
    var description: String {
        String(format: `_`("The first line must be: %@"), WordPoolCSV.header)
    }
}

/// Why a word list was not read at all: it is bigger than any list can be.
struct CSVTooLarge: Error, CustomStringConvertible {
    var limitMB: Int
    var description: String {
        String(format: `_`("A word list is at most %d MB. Please choose the right file."), limitMB)
    }
}
