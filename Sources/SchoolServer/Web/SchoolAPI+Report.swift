import Foundation
import LearnModel

/// What the web gallery shows a teacher beside each pupil's sketches: the
/// grades and comments given, and how their Buchstaben Post rounds went.
/// Read from the server's current state (`CurrentState`) by class, every
/// row of it: a class's hundredth day of games crowds out no grade.
extension SchoolAPI {
    struct Report: Sendable {
        /// The latest edit of every grade, taken-back ones left out.
        var grades: [GradeRecord] = []
        /// The edits each of those replaced, newest first, by its position
        /// in `grades`: a teacher sees what a grade was before.
        var earlier: [[GradeRecord]] = []
        /// Each result with the account of the pupil who played it.
        var results: [(pupil: UUID, result: RoundResult)] = []
        /// The sketches graded, by key: their names, and their members (a
        /// team grade is shown to each of them).
        var sketches: [String: (name: String, authors: Set<String>)] = [:]
    }

    /// A class's report, for its teacher: 404 when there is no such
    /// class, 403 when it is another teacher's.
    func report(classID: UUID) async throws -> Report {
        let teacher = try await signedInTeacher()
        _ = try await ownClass(classID, of: teacher)
        return try await database {
            let kept = try await sync.grades(ofClass: classID).sorted { $0.grade.at > $1.grade.at }
            let edits = try await sync.gradeEdits(of: kept.map(\.id))
            // Only what the kept edit replaced: an edit that arrived since
            // it was read is newer, not history.
            let graded = Set(kept.filter { $0.grade.target == .sketch }.map { $0.grade.targetId.lowercased() })
            return Report(grades: kept.map(\.grade),
                          earlier: kept.map { k in (edits[k.id] ?? []).filter { k.grade.supersedes($0) }.sorted { $0.supersedes($1) } },
                          results: try await sync.results(ofClass: classID),
                          sketches: try await sync.sketchNames(graded, visibleTo: teacher))
        }
    }

    /// The signed-in pupil's own rounds.
    func ownResults() async throws -> [RoundResult] {
        let account = try await signedIn()
        return try await database { try await sync.results(of: account.id) }
    }

    /// One account's drawn picture, if the visitor may see it: one row,
    /// not every classmate's.
    func picture(of id: UUID) async throws -> Data? {
        let account = try await signedIn()
        return try await database { try await sync.profile(of: id, visibleTo: account) }?.avatarPNG
    }

    /// The drawn pictures (avatars) of the accounts the visitor may see
    /// (their own, classmates', pupils of their classes), by account key.
    func pictures() async throws -> [String: Data] {
        let account = try await signedIn()
        let profiles = try await database { try await sync.profiles(visibleTo: account) }
        return Dictionary(profiles.compactMap { p in p.profile.avatarPNG.map { (p.account.key, $0) } },
                          uniquingKeysWith: { a, _ in a })
    }
}
