import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The word lists of Buchstaben Post as the teacher keeps them: a list is
/// edited row by row (word, hint, priority) in a list that shows only the
/// rows on screen, so a list of thousands is edited in place too, checked
/// by the same rules as a file import (bad rows marked and named), saved (and synced), imported from or exported to CSV,
/// deleted after asking (and only once the Undo of the teacher's window is
/// gone: until then the list is just hidden here), given to classes, and
/// tried out: how a game would deal it to three players.
@MainActor
final class TeacherPoolsView {
    let widget: Widget
    private weak var nav: (any Navigator)?
    private let shelf: WordListShelf
    /// Every list the game offers on this computer, built-in ones too.
    private let allPools: @MainActor () -> [WordPool]
    /// The signed-in teacher's calls to the server (`SchoolLink.office`).
    private let office: @MainActor () -> SchoolOffice
    private let poolRow: Widget
    /// What the last save or export did, until another list is chosen.
    private let notice: Widget
    private let editor: Widget
    private let rows = PoolRowsList()
    private let problems: Widget
    private let preview: Widget
    private let classesRow: Widget
    private var draft: PoolDraft?
    private var pools: [WordPool] = []
    private var nameEntry: Widget?
    private var poolButtons: [Widget] = []
    private let toast: UndoToast
    /// Lists whose deletion can still be undone: not shown, not yet deleted.
    private var deleting: Set<String> = []
    /// A check is due: typing in a long list is checked after a pause, not
    /// on every key.
    private var checkPending = false

    init(nav: any Navigator, shelf: WordListShelf, allPools: @escaping @MainActor () -> [WordPool],
         office: @escaping @MainActor () -> SchoolOffice, toast: UndoToast) {
        self.nav = nav
        self.shelf = shelf
        self.allPools = allPools
        self.office = office
        self.toast = toast
        poolRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        editor = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
        problems = UI.label("", classes: ["form-message"])
        preview = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        classesRow = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_label_set_xalign(ts_label(problems), 0)
        // Its line is always there (a space when silent): a notice must
        // not move the editor under the teacher's pointer.
        notice = UI.label(" ", classes: ["form-label"])
        gtk_label_set_xalign(ts_label(notice), 0)
        let page = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [poolRow, notice, editor])
        gtk_widget_set_margin_top(page, 12)
        gtk_widget_set_margin_start(page, 24)
        gtk_widget_set_margin_end(page, 24)
        // The rows scroll in their own list, which takes the room left; the
        // page scrolls only where a small window cannot hold its minimum,
        // sideways too: many lists or long names never widen the window
        // past a laptop's screen.
        UI.expand(editor)
        widget = UI.scrolled(page, sideways: true)
        UI.expand(widget)
        for kept in [rows.widget, problems, preview, classesRow] { g_object_ref_sink(gpointer(kept)) }
        rows.row = { [weak self] i in
            guard let rows = self?.draft?.rows, rows.indices.contains(i) else { return nil }
            return rows[i]
        }
        rows.changed = { [weak self] i, field, text in
            guard let self, let count = self.draft?.rows.count, i < count else { return }
            switch field {
            case .word: self.draft?.rows[i].word = text
            case .hint: self.draft?.rows[i].hint = text
            case .priority: self.draft?.rows[i].priority = text
            }
            self.checkSoon()
        }
        rows.remove = { [weak self] i in self?.removeRow(at: i) }
        loadPools(select: nil)
    }

    isolated deinit {
        for kept in [rows.widget, problems, preview, classesRow] { g_object_unref(gpointer(kept)) }
    }

    private func loadPools(select id: String?) {
        pools = allPools().filter { !deleting.contains($0.id) }
        UI.clear(poolRow)
        poolButtons = []
        var first: Widget?
        var chosen: Widget?
        for pool in pools {
            let b = gtk_toggle_button_new_with_label(WordPoolCatalogue.title(of: pool))!
            UI.style(b, ["choice"])
            if let first { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(first)) } else { first = b }
            if pool.id == id || (id == nil && chosen == nil) { chosen = b }
            Signal.connect(UI.raw(b), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { self?.edit(PoolDraft(pool: pool)) }
            }
            UI.append(poolRow, b)
            poolButtons.append(b)
        }
        let new = UI.button(`_`("New word list"), icon: "list-add-symbolic", classes: ["choice"]) { [weak self] in
            guard let self else { return }
            // None of the saved lists is the one being edited now.
            for b in self.poolButtons { gtk_toggle_button_set_active(ts_toggle(b), 0) }
            self.edit(PoolDraft(newIn: self.draft?.language ?? "de", name: `_`("New word list")))
        }
        UI.append(poolRow, new)
        if let chosen { gtk_toggle_button_set_active(ts_toggle(chosen), 1) }
    }

    // MARK: the editor

    private func edit(_ draft: PoolDraft) {
        if draft.pool?.id != self.draft?.pool?.id { UI.setText(notice, " ") }
        self.draft = draft
        UI.clear(editor)
        let name = gtk_entry_new()!
        gtk_editable_set_text(ts_editable(name), draft.name)
        UI.accessibleLabel(name, `_`("Name of the word list"))
        Signal.connect(UI.raw(name), "changed") { [weak self] in self?.draft?.name = UI.entryText(name) }
        nameEntry = name
        gtk_widget_set_size_request(name, 360, -1)
        UI.append(editor, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [UI.label(`_`("Name"), classes: ["form-label"]), name]))
        // The actions first: a list may be long.
        let add = UI.button(`_`("Add a word"), icon: "list-add-symbolic", classes: ["choice"]) { [weak self] in
            self?.addRow()
        }
        // Short words on the buttons (the German ones are long), the whole
        // action for screen readers. No tooltip: one left showing after
        // the Delete question covered the toast's Undo in a test run.
        let save = UI.button(`_`("Save"), classes: ["choice", "suggested-action"]) { [weak self] in self?.save() }
        let importList = UI.button(`_`("Import…"), classes: ["choice"]) { [weak self] in self?.importCSV() }
        let export = UI.button(`_`("Export…"), classes: ["choice"]) { [weak self] in self?.exportCSV() }
        let delete = UI.button(`_`("Delete…"), classes: ["choice"]) { [weak self] in self?.confirmDelete() }
        let tryDeal = UI.button(`_`("Try a deal"), classes: ["choice"]) { [weak self] in self?.showDeal() }
        for (button, whole) in [(save, `_`("Save the word list")), (importList, `_`("Import words (CSV)…")),
                                (export, `_`("Export words (CSV)…")), (delete, `_`("Delete the word list…"))] {
            UI.accessibleLabel(button, whole)
        }
        UI.append(editor, UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [add, save, importList, export, delete, tryDeal]))
        UI.append(editor, problems)
        UI.append(editor, classesRow)
        UI.append(editor, preview)
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        let w = PoolRowsList.widths
        for (title, width) in [("", PoolRowsList.numberWidth), (`_`("Word"), w.word), (`_`("Hint"), w.hint),
                               (`_`("Priority"), w.priority)] {
            let l = UI.label(title, classes: ["card-name"])
            gtk_widget_set_size_request(l, width, -1)
            gtk_label_set_xalign(ts_label(l), 0)
            UI.append(header, l)
        }
        UI.append(editor, header)
        UI.append(editor, rows.widget)
        rows.reset(count: draft.rows.count)
        UI.clear(preview)
        showClasses()
        check()
    }

    private func addRow() {
        guard var d = draft else { return }
        guard d.addRow() else {
            UI.setText(problems, String(format: `_`("A word list holds at most %d words."), PoolDraft.maxRows))
            return
        }
        draft = d
        rows.inserted(at: d.rows.count - 1)
        rows.show(row: d.rows.count - 1)
        check()
    }

    private func removeRow(at index: Int) {
        guard var d = draft, let removed = d.removeRow(at: index) else { return }
        draft = d
        rows.removed(at: index)
        check()
        // What was typed in the row can be had back (the saved list
        // changes only with Save, so there is nothing to ask).
        guard removed != PoolDraft.Row() else { return }
        offerUndo(removing: removed, at: index, from: d.id)
    }

    private func offerUndo(removing row: PoolDraft.Row, at index: Int, from draftID: String) {
        let word = row.word.trimmingCharacters(in: .whitespaces)
        toast.offer(UndoToast.Entry(
            message: word.isEmpty ? `_`("A row was removed") : String(format: `_`("“%@” removed"), word),
            takeBack: { [weak self] in
                guard let self, var d = self.draft, d.id == draftID, let at = d.restore(row, at: index) else { return }
                self.draft = d
                self.rows.inserted(at: at)
                self.rows.show(row: at)
                self.check()
            }))
    }

    private func checkSoon() {
        guard !checkPending else { return }
        checkPending = true
        runAfter(ms: 150) { [weak self] in
            self?.checkPending = false
            self?.check()
        }
    }

    /// Says which rows are not words yet (the first few), as the import does.
    private func check() {
        guard let draft else { return }
        let bad = draft.badRows
        rows.mark(bad)
        let found = bad.sorted { $0.key < $1.key }.map { (row: $0.key, reason: $0.value) }
        let lines = found.prefix(4).map { String(format: `_`("Row %d: %@"), $0.row + 1, WordListRowText.text(for: $0.reason)) }
        let more = found.count > 4 ? "\n" + String(format: `_`("…and %d more."), found.count - 4) : ""
        UI.setText(problems, lines.joined(separator: "\n") + more)
    }

    private func save() {
        guard let nav, let pool = draft?.pool else {
            if draft?.name.trimmingCharacters(in: .whitespaces).isEmpty == true {
                UI.setText(problems, `_`("The word list needs a name."))
            }
            return
        }
        do {
            try shelf.keep(pool)
            loadPools(select: pool.id)
            say(String(format: `_`("✓ “%@” is saved."), pool.name))
        } catch {
            nav.showError(`_`("The words could not be saved."), error)
        }
    }

    private func confirmDelete() {
        guard let nav, let draft else { return }
        Alert.show(parent: nav.window, title: `_`("Delete this word list?"),
                   message: String(format: _n("“%@” and its %d word are deleted on every device of the school.",
                                                     "“%@” and its %d words are deleted on every device of the school.",
                                                     draft.rows.count),
                                   draft.name, draft.rows.count),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Delete"), classes: ["destructive-action"]) { [weak self] in
                                 self?.delete(draft)
                             }])
    }

    /// The list disappears at once; it is deleted (on this computer and, by
    /// sync, everywhere) only when Undo is no longer offered, so Undo just
    /// shows it again, with its classes, as it was.
    private func delete(_ draft: PoolDraft) {
        let id = draft.id
        deleting.insert(id)
        loadPools(select: nil)
        toast.offer(UndoToast.Entry(
            message: String(format: `_`("Word list “%@” deleted"), draft.name),
            commit: { [weak self, weak nav, shelf] in
                self?.deleting.remove(id)
                do {
                    try shelf.throwAway(id)
                } catch {
                    nav?.showError(`_`("The word list could not be deleted."), error)
                }
            },
            takeBack: { [weak self] in
                guard let self, self.deleting.remove(id) != nil else { return }
                self.loadPools(select: id)
            }))
    }

    private func importCSV() {
        guard let nav else { return }
        FileChooser.ask(parent: nav.window, title: `_`("Import words"), save: false, acceptLabel: `_`("Import"),
                        filters: [.init(name: `_`("Word lists (CSV)"), patterns: ["*.csv"])]) { [weak self] path in
            guard let self else { return }
            do {
                let result = try WordPoolCSV.importItems(contentsOf: path)
                // The file's words replace the list's rows; bad rows are said
                // as for any import, and nothing is saved until "Save".
                self.draft?.replaceRows(with: result.items)
                self.rows.reset(count: self.draft?.rows.count ?? 0)
                self.check()
                if !result.errors.isEmpty {
                    let lines = result.errors.prefix(8).map {
                        String(format: `_`("Line %d: %@"), $0.line, WordListRowText.text(for: $0.reason))
                    }
                    Alert.show(parent: nav.window, title: `_`("Some rows could not be read"), message: lines.joined(separator: "\n"))
                }
            } catch WordPoolCSVError.tooLarge(let limit) {
                nav.showError(`_`("This file is too big to be a word list."), CSVTooLarge(limitMB: max(1, limit >> 20)))
            } catch WordPoolCSVError.badHeader {
                nav.showError(`_`("This is not a word list."), CSVHeaderHint())
            } catch {
                nav.showError(`_`("The word list could not be read."), error)
            }
        }
    }

    private func exportCSV() {
        guard let nav, let pool = draft?.pool else { return check() }
        WordListExport.ask(pool, nav: nav) { [weak self] path in
            self?.say(String(format: `_`("✓ Exported as %@."), (path as NSString).lastPathComponent))
        }
    }

    private func say(_ text: String) {
        UI.setText(notice, text)
        FileHandle.standardError.write(Data("word lists: \(text)\n".utf8))
    }

    /// Three players' first words, with the letters their team must send.
    private func showDeal() {
        UI.clear(preview)
        guard let pool = draft?.pool else { return check() }
        let dealt = DealPreview.firstRound(of: pool, players: 3, seed: UInt64.random(in: 1...UInt64.max))
        let heading = UI.label(`_`("A first round for three players:"), classes: ["form-label"])
        gtk_label_set_xalign(ts_label(heading), 0)
        UI.append(preview, heading)
        for (i, word) in dealt.enumerated() {
            let l = UI.label(String(format: `_`("Player %d: %@  (%@) — %@"), i + 1, word.shown, word.word, word.hint),
                             classes: ["table-cell"])
            gtk_label_set_xalign(ts_label(l), 0)
            UI.append(preview, l)
        }
    }

    /// With a teacher signed in: which of their classes get this list.
    private func showClasses() {
        UI.clear(classesRow)
        guard let draft else { return }
        let poolID = draft.id, office = office(), shelf = shelf
        // Without a teacher signed in, the office refuses (`NoTeacher`):
        // there are no classes to give it to.
        Task { @MainActor [weak self, weak nav] in
            guard let classes = await (try? office.classes(false)), let self, self.draft?.id == poolID else { return }
            let given = Set((try? shelf.assignedClasses(poolID)) ?? [])
            UI.append(self.classesRow, UI.label(`_`("Given to:"), classes: ["form-label"]))
            for c in classes {
                let check = gtk_check_button_new_with_label(c.name)!
                gtk_check_button_set_active(ts_check(check), given.contains(c.id) ? 1 : 0)
                Signal.connect(UI.raw(check), "toggled") { [weak nav] in
                    let on = gtk_check_button_get_active(ts_check(check)) != 0
                    do {
                        try shelf.give(poolID, to: c.id, on, now: Date())
                    } catch {
                        nav?.showError(`_`("The word list could not be given to the class."), error)
                    }
                }
                UI.append(self.classesRow, check)
            }
        }
    }
}
