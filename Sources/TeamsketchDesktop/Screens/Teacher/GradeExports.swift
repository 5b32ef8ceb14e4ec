import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

/// The two spreadsheets of the teacher's window, put together from the
/// store away from the main thread: grades of sketches (each pupil's row
/// with the team's grade and their own) and Buchstaben Post results per
/// pupil with their grade. Column titles are translated; in English they
/// are the sheets' own column names (as scripts read them).
enum GradeExports {
    static func sketches(_ ids: [UUID], store: LocalStore, pupils: GradedPupils) -> String {
        var sheet = GradeSheet()
        for id in ids {
            guard let doc = try? store.loadSketch(id) else { continue }
            let records = (try? store.grades(forTarget: id.lowercasedText)) ?? []
            let team = records.last { $0.pupilId == nil }
            var own: [String: GradeRecord] = [:]
            for author in ContributionStats(document: doc).authors.map(\.author) {
                own[author] = pupils.grade(for: author, among: records)
            }
            sheet.add(doc, grade: team, pupilGrades: own)
        }
        return sheet.csv(dialect, titles: [
            `_`("sketch"), `_`("date"), `_`("pupil"), `_`("strokes"), `_`("ink_percent"), `_`("active_minutes"),
            `_`("erased_others"), `_`("team_grade"), `_`("team_comment"), `_`("pupil_grade"), `_`("pupil_comment"),
        ])
    }

    static func gameStats(store: LocalStore, pupils: GradedPupils) throws -> String {
        var sheet = GameStatsSheet()
        for name in try store.wordPostPlayers() {
            let targets = pupils.gameTargets(for: name)
            let records = targets.flatMap { (try? store.grades(forTarget: $0.lowercasedText)) ?? [] }
            sheet.add(try store.stats(forPlayer: name), grade: pupils.grade(for: name, among: records))
        }
        return sheet.csv(dialect, titles: [
            `_`("pupil"), `_`("words"), `_`("rounds"), `_`("seconds_per_word"), `_`("letters_sent"),
            `_`("letters_received"), `_`("wrong_placements"), `_`("last_played"), `_`("grade"), `_`("comment"),
        ])
    }

    /// The spreadsheet's language is the one this computer writes dates in:
    /// a German desktop's LibreOffice reads ";" and decimal commas.
    static var dialect: SpreadsheetDialect { SpreadsheetDialect.forLanguage(FormatLocale.current.identifier) }
}
