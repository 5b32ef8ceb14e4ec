import Foundation
import LearnModel

/// What the web gallery shows a teacher beside each pupil's sketches: the
/// grades and comments given, and how their Buchstaben Post rounds went.
/// Read with the same visibility as a pull, so a page shows exactly what
/// the teacher's laptop would receive.
extension SchoolAPI {
    /// One pupil's recorded round, as the laptops push it (other fields
    /// are left unread).
    struct RoundResult: Decodable, Sendable {
        var finished: Bool
        var milliseconds: Int
        var lettersSent: Int
        var lettersReceived: Int
        var wrongPlacements: Int
    }

    struct Report: Sendable {
        /// The latest record of every grade, taken-back ones left out.
        var grades: [GradeRecord] = []
        /// Each result with the account that pushed it (the pupil playing).
        var results: [(pupil: UUID, result: RoundResult)] = []
    }

    /// At most this many grades and results are read for one page.
    static let maxReportChanges = 20_000

    func report() async throws -> Report {
        let account = try await signedIn()
        var latest: [String: GradeRecord] = [:]
        var report = Report()
        var cursor: Int64 = 0
        var read = 0
        let decoder = JSONDecoder()
        while read < Self.maxReportChanges {
            let page = try await database {
                try await sync.changes(visibleTo: account, after: cursor, limit: 500, only: [.grade, .wordPostRoundStat])
            }
            for stored in page.changes {
                let payload = Data(stored.change.payload.utf8)
                switch stored.change.entity {
                case .grade: latest[stored.change.entityId.lowercased()] = try? decoder.decode(GradeRecord.self, from: payload)
                case .wordPostRoundStat:
                    if let result = try? decoder.decode(RoundResult.self, from: payload) {
                        report.results.append((stored.authorID, result))
                    }
                default: break
                }
            }
            read += page.changes.count
            cursor = page.cursor
            if !page.more { break }
        }
        report.grades = latest.values.filter { !$0.deleted }.sorted { $0.at > $1.at }
        return report
    }
}
