import CGtk
import Foundation
import TeamsketchCore

/// A pupil renamed, moved to another of the teacher's classes, or removed
/// for good after the teacher has read what goes with them (counted by the
/// server: the pupil's own sketches, game rounds and grades; team sketches
/// stay with their teams).
extension TeacherClassesView {
    /// Rename…, Move… (when the teacher has another class in use) and
    /// Remove…, each named for the pupil for a screen reader.
    func peopleButtons(_ pupil: SchoolOffice.Pupil) -> Widget {
        let rename = UI.button(`_`("Rename…"), classes: ["choice"]) { [weak self] in self?.askRename(pupil) }
        UI.accessibleLabel(rename, String(format: `_`("Rename %@"), pupil.name))
        var buttons = [rename]
        let others = classes.filter { !$0.archived && $0.id != selected?.id }
        if !others.isEmpty {
            let move = UI.button(`_`("Move…"), classes: ["choice"]) { [weak self] in self?.askMove(pupil, to: others) }
            UI.accessibleLabel(move, String(format: `_`("Move %@ to another class"), pupil.name))
            buttons.append(move)
        }
        let export = UI.button(`_`("Export…"), classes: ["choice"]) { [weak self] in self?.askExport(pupil) }
        UI.accessibleLabel(export, String(format: `_`("Export everything of %@"), pupil.name))
        buttons.append(export)
        let remove = UI.button(`_`("Remove…"), classes: ["choice"]) { [weak self] in self?.askRemove(pupil) }
        UI.accessibleLabel(remove, String(format: `_`("Remove %@"), pupil.name))
        buttons.append(remove)
        return UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, buttons)
    }

    private func askRename(_ pupil: SchoolOffice.Pupil) {
        guard let nav else { return }
        let entry = gtk_entry_new()!
        gtk_editable_set_text(ts_editable(entry), pupil.name)
        UI.style(entry, ["form-entry"])
        UI.accessibleLabel(entry, String(format: `_`("New name of %@"), pupil.name))
        // The window is gone when Rename runs: the name is kept as typed.
        let typed = Kept(pupil.name)
        Signal.connect(UI.raw(entry), "changed") { typed.value = UI.entryText(entry) }
        Alert.show(parent: nav.window, title: String(format: `_`("Rename %@"), pupil.name),
                   message: `_`("The new name is shown at sign-in, in the gallery and with the grades."),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Rename"), classes: ["suggested-action"]) { [weak self] in
                                 self?.rename(pupil, to: typed.value.trimmingCharacters(in: .whitespaces))
                             }],
                   extra: entry, focus: entry, enterTakes: 1)
    }

    private func rename(_ pupil: SchoolOffice.Pupil, to name: String) {
        guard !name.isEmpty, name != pupil.name, let shown = selected else { return }
        let id = pupil.id
        run({ try await $0.renamePupil(id, name) }, then: { [weak self] _ in
            FileHandle.standardError.write(Data("classes: renamed a pupil\n".utf8))
            self?.note = String(format: `_`("%@ is now called %@."), pupil.name, name)
            self?.showAfterChange(shown)
        }, refused: { error in
            (error as? SchoolOffice.Refusal) == .conflict
                ? String(format: `_`("A classmate is already called %@. Please choose another name."), name) : nil
        })
    }

    private func askMove(_ pupil: SchoolOffice.Pupil, to others: [SchoolOffice.SchoolClass]) {
        guard let nav, let first = others.first else { return }
        let chosen = Kept(first)
        let choices = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        var group: Widget?
        for schoolClass in others {
            let b = gtk_toggle_button_new_with_label(schoolClass.name)!
            UI.style(b, ["choice"])
            if let group { gtk_toggle_button_set_group(ts_toggle(b), ts_toggle(group)) } else { group = b }
            gtk_toggle_button_set_active(ts_toggle(b), schoolClass.id == first.id ? 1 : 0)
            Signal.connect(UI.raw(b), "toggled") {
                if gtk_toggle_button_get_active(ts_toggle(b)) != 0 { chosen.value = schoolClass }
            }
            UI.append(choices, b)
        }
        Alert.show(parent: nav.window, title: String(format: `_`("Move %@ to another class"), pupil.name),
                   message: String(format: `_`("%@ keeps their sketches, games and grades, and signs in again in the new class."),
                                   pupil.name),
                   choices: [.init(`_`("Cancel")),
                             .init(`_`("Move"), classes: ["suggested-action"]) { [weak self] in
                                 self?.move(pupil, to: chosen.value)
                             }],
                   extra: choices)
    }

    private func move(_ pupil: SchoolOffice.Pupil, to target: SchoolOffice.SchoolClass) {
        guard let shown = selected else { return }
        let id = pupil.id
        run({ try await $0.movePupil(id, target.id) }, then: { [weak self] _ in
            FileHandle.standardError.write(Data("classes: moved a pupil\n".utf8))
            self?.note = String(format: `_`("%@ is now in %@."), pupil.name, target.name)
            self?.showAfterChange(shown)
        }, refused: { error in
            (error as? SchoolOffice.Refusal) == .conflict
                ? String(format: `_`("%@ already has a pupil called %@, or is full."), target.name, pupil.name) : nil
        })
    }

    /// The class read again, its new count too, with the keyboard in the
    /// new pupil's field: the row that had it is gone, and GTK would hand
    /// it to the class's name, where typing renames the class.
    private func showAfterChange(_ schoolClass: SchoolOffice.SchoolClass) {
        show(schoolClass, typingNames: true)
        loadClasses()
    }

    /// Where the pupil's data goes (a zip the server makes: records and
    /// pictures), for a family that asks for it.
    private func askExport(_ pupil: SchoolOffice.Pupil) {
        guard let nav else { return }
        FileChooser.ask(parent: nav.window, title: String(format: `_`("Export everything of %@"), pupil.name), save: true,
                        acceptLabel: `_`("Export"), suggestedName: PupilExportName.file(for: pupil.name),
                        filters: [.init(name: `_`("Zip archive (.zip)"), patterns: ["*.zip"])]) { [weak self] path in
            self?.export(pupil, to: path)
        }
    }

    private func export(_ pupil: SchoolOffice.Pupil, to path: String) {
        let id = pupil.id
        run(reading: true, { try await $0.exportPupil(id) }) { [weak self] zip in
            Task { @MainActor [weak self] in
                let written = await Task.detached { () -> Result<Void, any Error> in
                    Result { try Data(zip).write(to: URL(fileURLWithPath: path), options: .atomic) }
                }.value
                switch written {
                case .success:
                    FileHandle.standardError.write(Data("classes: exported a pupil\n".utf8))
                    guard let self else { return }
                    UI.setText(self.status, String(format: `_`("Everything of %@ is saved in %@."), pupil.name,
                                                   URL(fileURLWithPath: path).lastPathComponent))
                case .failure(let error):
                    self?.nav?.showError(`_`("The pupil's data could not be saved."), error)
                }
            }
        }
    }

    /// Asks the server what goes first, and names it.
    private func askRemove(_ pupil: SchoolOffice.Pupil) {
        let id = pupil.id
        run(reading: true, { try await $0.footprint(id) }) { [weak self] footprint in
            guard let self, let nav = self.nav else { return }
            Alert.show(parent: nav.window, title: String(format: `_`("Remove %@ for good?"), pupil.name),
                       message: PupilRemovalText.message(footprint),
                       choices: [.init(`_`("Cancel")),
                                 .init(`_`("Remove for good"), classes: ["destructive-action"]) { [weak self] in
                                     self?.remove(pupil)
                                 }])
        }
    }

    private func remove(_ pupil: SchoolOffice.Pupil) {
        guard let shown = selected else { return }
        let id = pupil.id
        run({ try await $0.removePupil(id) }) { [weak self] _ in
            FileHandle.standardError.write(Data("classes: removed a pupil\n".utf8))
            self?.note = String(format: `_`("%@ was removed."), pupil.name)
            self?.showAfterChange(shown)
            // This computer forgets the pupil now rather than at its next pull.
            self?.syncNow()
        }
    }
}

/// The file a pupil's data is suggested to go to: their name, then the
/// date, with nothing a file name cannot hold.
enum PupilExportName {
    static func file(for name: String, on date: Date = Date()) -> String {
        let safe = String(name.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " ? Character($0) : "_"
        }).trimmingCharacters(in: .whitespaces)
        let day = date.formatted(.iso8601.year().month().day())
        return (safe.isEmpty ? "pupil" : safe) + " " + day + ".zip"
    }
}

/// What the question before removing a pupil says, from the server's count.
enum PupilRemovalText {
    static func message(_ footprint: SchoolOffice.Footprint) -> String {
        var lines = [`_`("This erases on the school server, and on every computer at its next sync:")]
        lines.append("• " + String(format: _n("%d sketch", "%d sketches", footprint.sketches), footprint.sketches))
        lines.append("• " + String(format: _n("%d game round", "%d game rounds", footprint.gameRounds), footprint.gameRounds))
        lines.append("• " + String(format: _n("%d grade", "%d grades", footprint.grades), footprint.grades))
        lines.append("• " + `_`("the account and its pictures"))
        if footprint.teamSketches > 0 {
            lines.append(String(format: _n("%d team sketch stays with the team.", "%d team sketches stay with their teams.",
                                           footprint.teamSketches), footprint.teamSketches))
        }
        lines.append(`_`("This cannot be undone."))
        return lines.joined(separator: "\n")
    }
}
