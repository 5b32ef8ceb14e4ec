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
        /// The rounds asked for (`Rounds`), by the pupil who played them,
        /// in the order the server received them.
        var results: [UUID: [RoundResult]] = [:]
        /// Each pupil's rounds added up (of the rounds asked for).
        var totals: [UUID: GameTotals] = [:]
        /// The sketches graded, by key: their names, and their members (a
        /// team grade is shown to each of them).
        var sketches: [String: (name: String, authors: Set<String>)] = [:]
    }

    /// Which Buchstaben Post rounds a report reads: none, only each
    /// pupil's totals (added up by the database), one pupil's, or all.
    enum Rounds: Sendable {
        case none, totals, of(UUID), all
    }

    /// A class's report, for its teacher: 404 when there is no such
    /// class, 403 when it is another teacher's.
    func report(classID: UUID, rounds: Rounds) async throws -> Report {
        let teacher = try await signedInTeacher()
        _ = try await ownClass(classID, of: teacher)
        return try await database {
            let kept = try await sync.grades(ofClass: classID).sorted { $0.grade.at > $1.grade.at }
            let edits = try await sync.gradeEdits(of: kept.map(\.id))
            // Only what the kept edit replaced: an edit that arrived since
            // it was read is newer, not history.
            let graded = Set(kept.filter { $0.grade.target == .sketch }.map { $0.grade.targetId.text })
            var report = Report(grades: kept.map(\.grade),
                                earlier: kept.map { k in
                                    (edits[k.id] ?? []).filter { k.grade.supersedes($0) }.sorted { $0.supersedes($1) }
                                },
                                sketches: try await sync.sketchNames(graded, visibleTo: teacher))
            switch rounds {
            case .none: break
            case .totals: report.totals = try await sync.gameTotals(ofClass: classID)
            case .of(let pupil):
                let own = try await sync.results(ofClass: classID, player: pupil)
                report.results = [pupil: own]
                report.totals = [pupil: GameTotals(own)]
            case .all:
                report.results = Dictionary(grouping: try await sync.results(ofClass: classID), by: \.pupil)
                    .mapValues { $0.map(\.result) }
                report.totals = report.results.mapValues(GameTotals.init)
            }
            return report
        }
    }

    /// The signed-in pupil's own rounds.
    func ownResults() async throws -> [RoundResult] {
        let account = try await signedIn()
        return try await database { try await sync.results(of: account.id) }
    }

    /// What the teachers said about the signed-in pupil's work: for each
    /// piece of work, their own grade, else their team's (`PupilFeedback`),
    /// newest first, with the sketch's name (nil for a game, or a sketch
    /// they may no longer see).
    func ownFeedback() async throws -> [(target: GradeRecord.Target, targetID: String, name: String?, feedback: PupilFeedback)] {
        let account = try await signedIn()
        return try await database {
            let grades = try await sync.grades(of: account.id)
            let viewer = PupilFeedback.Viewer(accountID: AccountID(account.id), name: account.name)
            var order: [String] = []
            var byWork: [String: [GradeRecord]] = [:]
            for g in grades {
                let key = g.targetId.text
                if byWork[key] == nil { order.append(key) }
                byWork[key, default: []].append(g)
            }
            let sketches = Set(grades.filter { $0.target == .sketch }.map { $0.targetId.text })
            let names = try await sync.sketchNames(sketches, visibleTo: account)
            return order.compactMap { key in
                guard let work = byWork[key], let first = work.first,
                      let feedback = PupilFeedback.shown(to: viewer, from: work) else { return nil }
                return (first.target, key, names[key]?.name, feedback)
            }
        }
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
