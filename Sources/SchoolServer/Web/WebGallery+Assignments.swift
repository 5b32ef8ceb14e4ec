import Foundation
import Hummingbird
import LearnModel
import SchoolServerAPI

/// A class's tasks in the web gallery, for its teacher: the list on the
/// class page, and for each task who has done it, who not yet, every
/// pupil's answer (the sketch, or the maths answers with the wrong ones
/// and the time) and the questions most of the class got wrong, also as a
/// spreadsheet. The API decides who may see which class.
extension WebGallery {
    func registerAssignments(on gallery: RouterGroup<ServerRequestContext>) {
        gallery.get("classes/:id/assignments/:task") { request, context in
            try await page(request) {
                try await assignmentPage(&$0, classID: try context.parameters.require("id"),
                                         task: try context.parameters.require("task"))
            }
        }
        gallery.get("classes/:id/assignments/:task/answers.csv") { request, context in
            try await file(request) {
                try await answersCSV(classID: try context.parameters.require("id"),
                                     task: try context.parameters.require("task"), $0)
            }
        }
    }

    /// The class page's list of tasks.
    func taskRows(classID: String, _ language: WebLanguage) async throws -> [[String: Any]] {
        try await api.classAssignments(classID: try SchoolAPI.id(classID)).map { id, record in
            var row: [String: Any] = ["href": "/gallery/classes/\(classID)/assignments/\(id)",
                                      "title": Self.title(of: record, language)]
            if let due = record.due { row["due"] = due }
            return row
        }
    }

    /// "Draw: a house", "Maths: Plus bis 10", "Buchstaben Post".
    static func title(of task: AssignmentRecord, _ language: WebLanguage) -> String {
        switch task.task {
        case .draw(let prompt, _, _, _): "\(WebText.drawTask.text(language)): \(prompt)"
        case .wordPost: "Buchstaben Post"
        case .maths(let set):
            set.name.isEmpty ? WebText.mathsTask.text(language) : "\(WebText.mathsTask.text(language)): \(set.name)"
        }
    }

    /// The task's overview, from the class as its teacher lists it.
    private func overview(classID: String, task: String) async throws
        -> (account: Components.Schemas.Account, record: AssignmentRecord, overview: AssignmentOverview) {
        let account = try await me()
        guard account.role == .teacher else { throw Problem.teachersOnly }
        guard let taskID = UUID(text: task) else { throw Problem(.notFound, "no such task") }
        guard case .ok(let ok) = try await api.listPupils(.init(path: .init(classId: classID))),
              case .json(let pupils) = ok.body else { throw Problem(.unavailable, "no answer") }
        let roster = pupils.compactMap { pupil in UUID(text: pupil.id).map { (id: AccountID($0), name: pupil.name) } }
        let (record, answers) = try await api.assignmentAnswers(classID: try SchoolAPI.id(classID), task: taskID,
                                                                pupils: roster.compactMap { $0.id.uuid })
        return (account, record, AssignmentOverview(task: record, pupils: roster, answers: answers))
    }

    private func assignmentPage(_ v: inout Visit, classID: String, task: String) async throws -> Response {
        let (account, record, overview) = try await overview(classID: classID, task: task)
        var isMaths = false
        if case .maths = record.task { isMaths = true }
        let rows = overview.rows.map { row -> [String: Any] in
            var out: [String: Any] = ["name": row.name, "done": row.done]
            if case .sketch(let id)? = row.answer?.work { out["sketch"] = id.key }
            if isMaths {
                out["right"] = row.rightCount
                out["asked"] = row.mathsAnswers.count
                out["seconds"] = SpreadsheetDialect.forLanguage(v.language.rawValue).tenths(row.seconds)
                out["wrong"] = row.wrongAnswers.map { ["question": $0.question.text, "given": $0.wrongTries.first.map(String.init) ?? ""] }
            }
            return out
        }
        let hardest = overview.hardest.map { ["question": $0.question.text, "wrong": $0.wrong, "answered": $0.answered] as [String: Any] }
        var data: [String: Any] = ["rows": rows, "done": overview.doneCount, "total": overview.rows.count, "maths": isMaths,
                                   "hardest": hardest, "hasHardest": !hardest.isEmpty,
                                   "csvHref": "/gallery/classes/\(classID)/assignments/\(task)/answers.csv",
                                   "backHref": "/gallery/classes/\(classID)"]
        if let due = record.due { data["due"] = due }
        return render(v, "assignment", heading: Self.title(of: record, v.language), data, account: account)
    }

    /// A row per pupil the task is for: done or not, and for maths how many
    /// were right at once, how many asked, the seconds, and the questions
    /// first answered wrongly with that answer.
    private func answersCSV(classID: String, task: String, _ language: WebLanguage) async throws
        -> (bytes: [UInt8], type: String, disposition: String?) {
        let (_, _, overview) = try await overview(classID: classID, task: task)
        let csv = SpreadsheetDialect.forLanguage(language.rawValue)
        let (yes, no) = (SpreadsheetColumn.yes.text(language), SpreadsheetColumn.no.text(language))
        var out = csv.row([SpreadsheetColumn.pupil, .done, .rightAtOnce, .questions, .seconds, .wrongAtFirst, .sketch]
            .map { csv.text($0.text(language)) })
        for row in overview.rows {
            var sketch = ""
            if case .sketch(let id)? = row.answer?.work { sketch = id.key }
            let wrong = row.wrongAnswers.map { "\($0.question.text) \($0.wrongTries.first.map(String.init) ?? "")" }
            out += csv.row([csv.text(row.name), row.done ? yes : no,
                            row.done ? String(row.rightCount) : "", row.done ? String(row.mathsAnswers.count) : "",
                            row.done ? csv.tenths(row.seconds) : "", csv.text(wrong.joined(separator: "; ")), sketch])
        }
        return (Array(out.utf8), "text/csv; charset=utf-8", "attachment; filename=\"answers.csv\"")
    }
}
