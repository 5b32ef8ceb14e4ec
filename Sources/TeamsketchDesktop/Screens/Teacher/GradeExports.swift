import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

/// The two spreadsheets of the teacher's window, put together from the
/// store away from the main thread: grades of sketches (each pupil's row
/// with the team's grade and their own) and Buchstaben Post results per
/// pupil with their grade.
enum GradeExports {
    static func sketches(_ ids: [UUID], store: LocalStore, pupils: GradedPupils) -> String {
        var sheet = GradeSheet()
        for id in ids {
            guard let doc = try? store.loadSketch(id) else { continue }
            let records = (try? store.grades(forTarget: id.uuidString.lowercased())) ?? []
            let team = records.last { $0.pupilId == nil }
            var own: [String: GradeRecord] = [:]
            for author in ContributionStats(document: doc).authors.map(\.author) {
                own[author] = pupils.grade(for: author, among: records)
            }
            sheet.add(doc, grade: team, pupilGrades: own)
        }
        return sheet.csv()
    }

    static func gameStats(store: LocalStore, pupils: GradedPupils) throws -> String {
        var sheet = GameStatsSheet()
        for name in try store.wordPostPlayers() {
            let targets = pupils.gameTargets(for: name)
            let records = targets.flatMap { (try? store.grades(forTarget: $0.uuidString.lowercased())) ?? [] }
            sheet.add(try store.stats(forPlayer: name), grade: pupils.grade(for: name, among: records))
        }
        return sheet.csv()
    }
}
