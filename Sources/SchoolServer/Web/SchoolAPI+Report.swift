import Foundation
import LearnModel

/// What the web gallery shows a teacher beside each pupil's sketches: the
/// grades and comments given, and how their Buchstaben Post rounds went.
/// Read with the same visibility as a pull, so a page shows exactly what
/// the teacher's laptop would receive.
extension SchoolAPI {
    /// One pupil's recorded round, as the laptops push it (other fields
    /// are left unread). The server stores any JSON object a laptop sends
    /// as a result, so numbers are range-checked here before anything adds
    /// them up: a round that claims more than a day or more than
    /// `maxCount` letters is not a round, and is left out.
    struct RoundResult: Decodable, Sendable {
        var finished: Bool
        var milliseconds: Int
        var lettersSent: Int
        var lettersReceived: Int
        var wrongPlacements: Int
        var word: String
        /// Nil when the laptop sent no readable time.
        var playedAt: Date?

        static let maxMilliseconds = Int(WordPostRoundStat.maxMilliseconds)
        static let maxCount = WordPostRoundStat.maxCount

        private enum CodingKeys: String, CodingKey {
            case finished, milliseconds, lettersSent, lettersReceived, wrongPlacements, word, playedAt
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            finished = try c.decode(Bool.self, forKey: .finished)
            func count(_ key: CodingKeys, max: Int) throws -> Int {
                // As a Double first: a number out of range is refused, never
                // converted with a trap (a fraction is cut to whole units).
                let value = try c.decode(Double.self, forKey: key)
                guard value.isFinite, value >= 0, value <= Double(max) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "out of range")
                }
                return Int(value)
            }
            milliseconds = try count(.milliseconds, max: Self.maxMilliseconds)
            lettersSent = try count(.lettersSent, max: Self.maxCount)
            lettersReceived = try count(.lettersReceived, max: Self.maxCount)
            wrongPlacements = try count(.wrongPlacements, max: Self.maxCount)
            word = String((try? c.decode(String.self, forKey: .word))?.prefix(200) ?? "")
            // The laptops' encoder writes seconds since 2001 (Foundation's
            // reference date); anything outside the sketches' dates is unread.
            playedAt = (try? c.decode(Double.self, forKey: .playedAt))
                .flatMap { $0.isFinite ? Date(timeIntervalSinceReferenceDate: $0) : nil }
                .flatMap { SketchLimits.dates.contains($0) ? $0 : nil }
        }
    }

    struct Report: Sendable {
        /// The latest edit of every grade, taken-back ones left out.
        var grades: [GradeRecord] = []
        /// Each result with the account of the pupil who played it.
        var results: [(pupil: UUID, result: RoundResult)] = []
    }

    /// At most this many grades, and this many results, are read for one page.
    static let maxReportChanges = 20_000

    func report() async throws -> Report {
        var latest: [String: GradeRecord] = [:]
        var report = Report()
        let decoder = JSONDecoder()
        // Grades are read on their own, so a class's many game results
        // never crowd them out of the page.
        for stored in try await visibleChanges(only: [.grade]) {
            // The latest edit, not the last to arrive (`supersedes`).
            let id = stored.change.entityId.lowercased()
            if let grade = try? decoder.decode(GradeRecord.self, from: Data(stored.change.payload.utf8)),
               latest[id].map(grade.supersedes) ?? true {
                latest[id] = grade
            }
        }
        for stored in try await visibleChanges(only: [.wordPostRoundStat]) {
            if let result = try? decoder.decode(RoundResult.self, from: Data(stored.change.payload.utf8)) {
                // The player's, which is not always the pusher's: a team
                // game's host pushes every player's rounds.
                report.results.append((stored.subjectID ?? stored.authorID, result))
            }
        }
        report.grades = latest.values.filter { !$0.deleted }.sorted { $0.at > $1.at }
        return report
    }

    /// The drawn pictures (avatars) of the accounts the visitor may see
    /// (their own, classmates', pupils of their classes), by account key.
    func pictures() async throws -> [String: Data] {
        var latest: [String: Data?] = [:]
        for stored in try await visibleChanges(only: [.profile]) {
            guard let profile = try? JSONDecoder().decode(ProfileRecord.self, from: Data(stored.change.payload.utf8)) else {
                continue
            }
            latest[stored.change.entityId.lowercased()] = profile.avatarPNG
        }
        return latest.compactMapValues { $0 }
    }

    /// Every change of these kinds the signed-in account would pull, oldest
    /// first, up to `maxReportChanges`.
    private func visibleChanges(only kinds: Set<SyncChange.Entity>) async throws -> [StoredChange] {
        let account = try await signedIn()
        var all: [StoredChange] = []
        var cursor: Int64 = 0
        while all.count < Self.maxReportChanges {
            let page = try await database {
                try await sync.changes(visibleTo: account, after: cursor, limit: 500, only: kinds)
            }
            all += page.changes
            cursor = page.cursor
            if !page.more { break }
        }
        return all
    }
}
