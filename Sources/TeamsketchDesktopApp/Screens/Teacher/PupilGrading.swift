import Foundation
import LearnModel
import TeamsketchCore

/// Pupils' own grades in grade editors, on a sketch's review or under the
/// game's results (`sketch` nil). What a grade is and how it is kept is
/// the grade book's; this shows it and says how saving went.
@MainActor
struct PupilGrading {
    let book: GradeBook
    let roster: TeacherRoster
    let sketch: UUID?
    let showError: @MainActor (String, any Error) -> Void

    /// Shows each pupil's grade at once, found by name, and again once the
    /// server said who the pupils are, where that finds another grade.
    /// `open`: whether the editors' widgets are still on screen (the answer
    /// may come after the teacher left; the editors hold no widget of their own).
    func load(_ editors: [String: GradeEditor], while open: @escaping @MainActor () -> Bool) {
        for (name, editor) in editors { show(book.pupilGrade(name, sketch: sketch, pupils: GradedPupils()), in: editor) }
        Task { @MainActor in
            let pupils = await roster.pupils()
            guard open(), !pupils.roster.isEmpty else { return }
            for (name, editor) in editors {
                let now = book.pupilGrade(name, sketch: sketch, pupils: pupils)
                if now != book.pupilGrade(name, sketch: sketch, pupils: GradedPupils()) { show(now, in: editor) }
            }
        }
    }

    func save(_ name: String, grade: Int?, comment: String, editor: GradeEditor,
              while open: @escaping @MainActor () -> Bool) {
        guard GradeBook.fits(comment: comment) else { return editor.say(Self.tooLong(GradeRecord.maxCommentCharacters)) }
        editor.say("…")
        Task { @MainActor [weak editor] in
            let pupils = await roster.pupils(waitingAtMost: 3, grading: name)
            let editor = open() ? editor : nil
            do {
                switch try book.savePupilGrade(name, sketch: sketch, grade: grade, comment: comment, pupils: pupils,
                                               now: Date()) {
                case .saved:
                    editor?.say(`_`("Saved."))
                    if let editor { show(book.pupilGrade(name, sketch: sketch, pupils: pupils), in: editor) }
                case .commentTooLong(let max):
                    editor?.say(Self.tooLong(max))
                }
            } catch {
                editor?.say("")
                showError(`_`("The grade could not be saved."), error)
            }
        }
    }

    private func show(_ record: GradeRecord?, in editor: GradeEditor) {
        editor.show(record, history: book.before(record))
    }

    static func tooLong(_ max: Int) -> String {
        String(format: `_`("A comment can have at most %d characters."), max)
    }
}
