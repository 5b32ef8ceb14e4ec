import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

/// Reading and keeping one pupil's grade on a sketch or on their
/// Buchstaben Post results (`sketch` nil), for the review and the game's
/// results. The rules are `GradedPupils`'; this asks the server who the
/// pupils are, reads and writes the store and starts a sync round.
@MainActor
enum PupilGrading {
    /// The pupil's current grade, found by their name too, so it shows at
    /// once, before the server said who the pupils are.
    static func current(_ store: LocalStore, pupils: GradedPupils, sketch: UUID?, name: String) -> GradeRecord? {
        let targets = sketch.map { [$0] } ?? pupils.gameTargets(for: name)
        let records = targets.flatMap { (try? store.grades(forTarget: $0.lowercasedText)) ?? [] }
        return pupils.grade(for: name, among: records)
    }

    /// Shows the grade in the editor with what it was before.
    static func show(_ record: GradeRecord?, in editor: GradeEditor, _ store: LocalStore) {
        editor.show(record, history: record.map { (try? store.gradeHistory(replacedBy: $0)) ?? [] } ?? [])
    }

    static func save(_ app: TeamsketchApp, sketch: UUID?, name: String, grade: Int?, comment: String,
                     editor: GradeEditor) {
        guard app.store != nil else { return }
        if comment.count > GradeRecord.maxCommentCharacters {
            return editor.say(String(format: `_`("A comment can have at most %d characters."), GradeRecord.maxCommentCharacters))
        }
        editor.say("…")
        Task { @MainActor [weak app, weak editor] in
            guard let app, let store = app.store else { return }
            let pupils = await TeacherRoster.pupils(app, waitingAtMost: 3, grading: name)
            let previous = current(store, pupils: pupils, sketch: sketch, name: name)
            let changes = pupils.changes(sketch: sketch, name: name, grade: grade, comment: comment, previous: previous,
                                         at: UnixMilliseconds.milliseconds(Date()))
            do {
                for change in changes { try store.setGrade(id: change.id, change.record) }
                editor?.say(`_`("Saved."))
                if let editor { show(current(store, pupils: pupils, sketch: sketch, name: name), in: editor, store) }
                app.school.syncNow()
            } catch {
                editor?.say("")
                app.showError(`_`("The grade could not be saved."), error)
            }
        }
    }
}
