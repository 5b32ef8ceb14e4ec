import Foundation
import LearnModel
import LearnStore

/// The teacher's grades as the teacher's window uses them: a team's grade
/// on a sketch, each pupil's own grade on a sketch or on their Buchstaben
/// Post results, what a grade was before, every grade as one list, and
/// the two spreadsheets. Whose grade is which is `GradedPupils`' rule; this
/// reads and keeps grades and asks for a sync round after each one kept,
/// so it reaches the school server without waiting for the next round.
///
/// `live` is a `LocalStore`; tests use `LocalStore.inMemory()` or their
/// own closures.
public struct GradeBook: Sendable {
    /// Every grade kept on one work (a sketch, or a pupil's game results).
    public var records: @Sendable (_ target: UUID) throws -> [GradeRecord]
    /// The grades a kept one replaced, newest first.
    public var history: @Sendable (_ kept: GradeRecord) throws -> [GradeRecord]
    public var write: @Sendable (_ id: UUID, _ record: GradeRecord) throws -> Void
    /// The newest grade under each id.
    public var everyGrade: @Sendable () throws -> [String: GradeRecord]
    public var sketches: @Sendable () throws -> [SketchSummary]
    public var sketch: @Sendable (_ id: UUID) throws -> SketchDocument
    /// The names Buchstaben Post results are kept under, and one's results.
    public var players: @Sendable () throws -> [String]
    public var results: @Sendable (_ player: String) throws -> WordPostPlayerRecord
    /// Results kept on this laptop because their player's name matched no
    /// pupil of the class.
    public var unfiled: @Sendable () throws -> (count: Int, names: [String])
    /// Asks for a sync round (after a grade was kept).
    public var kept: @Sendable () -> Void

    public init(records: @escaping @Sendable (UUID) throws -> [GradeRecord],
                history: @escaping @Sendable (GradeRecord) throws -> [GradeRecord],
                write: @escaping @Sendable (UUID, GradeRecord) throws -> Void,
                everyGrade: @escaping @Sendable () throws -> [String: GradeRecord],
                sketches: @escaping @Sendable () throws -> [SketchSummary],
                sketch: @escaping @Sendable (UUID) throws -> SketchDocument,
                players: @escaping @Sendable () throws -> [String],
                results: @escaping @Sendable (String) throws -> WordPostPlayerRecord,
                unfiled: @escaping @Sendable () throws -> (count: Int, names: [String]),
                kept: @escaping @Sendable () -> Void) {
        self.records = records
        self.history = history
        self.write = write
        self.everyGrade = everyGrade
        self.sketches = sketches
        self.sketch = sketch
        self.players = players
        self.results = results
        self.unfiled = unfiled
        self.kept = kept
    }

    /// `kept`: what starts a sync round (the school link's `syncNow`).
    public static func live(_ store: LocalStore, kept: @escaping @Sendable () -> Void) -> GradeBook {
        GradeBook(records: { try store.grades(forTarget: GradedWorkID($0)) },
                  history: { try store.gradeHistory(replacedBy: $0) },
                  write: { try store.setGrade(id: $0, $1) },
                  everyGrade: { try store.allGrades() },
                  sketches: { try store.sketches() },
                  sketch: { try store.loadSketch($0) },
                  players: { try store.wordPostPlayers() },
                  results: { try store.stats(forPlayer: $0) },
                  unfiled: { try store.unfiledResults() },
                  kept: kept)
    }

    /// Without a store: every read and write throws `StoreUnavailable`.
    public static let unavailable = GradeBook(
        records: { _ in throw StoreUnavailable() }, history: { _ in throw StoreUnavailable() },
        write: { _, _ in throw StoreUnavailable() }, everyGrade: { throw StoreUnavailable() },
        sketches: { throw StoreUnavailable() }, sketch: { _ in throw StoreUnavailable() },
        players: { throw StoreUnavailable() }, results: { _ in throw StoreUnavailable() },
        unfiled: { throw StoreUnavailable() }, kept: {})

    /// What keeping a grade came to; a store's failure is thrown instead.
    public enum Saving: Equatable, Sendable {
        case saved
        /// Nothing was kept: the comment is longer than a grade may hold.
        case commentTooLong(max: Int)
    }

    public static func fits(comment: String) -> Bool {
        comment.count <= GradeRecord.maxCommentCharacters
    }

    // MARK: a team's grade

    /// The team's grade on a sketch, if the teacher gave one.
    public func teamGrade(sketch: UUID) -> GradeRecord? {
        ((try? records(sketch)) ?? []).last { $0.pupilId == nil }
    }

    public func saveTeamGrade(sketch: UUID, grade: Int?, comment: String, now: Date) throws -> Saving {
        let record = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), grade: grade,
                                 comment: comment.trimmingCharacters(in: .whitespacesAndNewlines),
                                 at: UnixMilliseconds.milliseconds(now))
        guard record.problem == nil else { return .commentTooLong(max: GradeRecord.maxCommentCharacters) }
        try write(GradeIdentity.team(.sketch, sketch), record)
        kept()
        return .saved
    }

    // MARK: a pupil's own grade

    /// The pupil's current grade on a sketch (or on their game results,
    /// `sketch` nil), found by their name too, so it shows at once, before
    /// the server said who the pupils are. An unreadable store shows none.
    public func pupilGrade(_ name: String, sketch: UUID?, pupils: GradedPupils) -> GradeRecord? {
        let targets = sketch.map { [$0] } ?? pupils.gameTargets(for: name)
        return pupils.grade(for: name, among: targets.flatMap { (try? records($0)) ?? [] })
    }

    /// What a grade replaced; none when the store cannot say.
    public func before(_ record: GradeRecord?) -> [GradeRecord] {
        record.map { (try? history($0)) ?? [] } ?? []
    }

    /// Keeps the teacher's grade of one pupil (taking back an earlier one
    /// kept under their name, see `GradedPupils.changes`), all of it or
    /// nothing said to have been saved.
    public func savePupilGrade(_ name: String, sketch: UUID?, grade: Int?, comment: String,
                               pupils: GradedPupils, now: Date) throws -> Saving {
        guard Self.fits(comment: comment) else { return .commentTooLong(max: GradeRecord.maxCommentCharacters) }
        let previous = pupilGrade(name, sketch: sketch, pupils: pupils)
        for change in pupils.changes(sketch: sketch, name: name, grade: grade, comment: comment, previous: previous,
                                     at: UnixMilliseconds.milliseconds(now)) {
            try write(change.id, change.record)
        }
        kept()
        return .saved
    }

    // MARK: every grade

    /// Every grade as the grades list shows it. `authors`: who drew in
    /// each sketch (by id), as far as already read (`authors(of:)`).
    public func list(pupils: GradedPupils, authors: [UUID: [String]]) throws -> GradeList {
        var lastPlayed: [UUID: Date] = [:]
        for name in try players() {
            guard let last = try results(name).rounds.map(\.playedAt).max() else { continue }
            for target in pupils.gameTargets(for: name) { lastPlayed[target] = last }
        }
        var works: [UUID: GradeList.SketchWork] = [:]
        for s in try sketches() {
            works[s.id] = .init(name: s.name, date: s.createdAt, authors: authors[s.id])
        }
        return GradeList(records: try everyGrade(), sketches: works, lastPlayed: lastPlayed, pupils: pupils)
    }

    /// Who drew in each sketch, by id; sketches that cannot be read are
    /// left out. Reads whole sketches: not for the main thread.
    public func authors(of ids: Set<UUID>) -> [UUID: [String]] {
        var found: [UUID: [String]] = [:]
        for id in ids {
            guard let doc = try? sketch(id) else { continue }
            found[id] = ContributionStats(document: doc).authors.map(\.author)
        }
        return found
    }

    // MARK: spreadsheets

    /// The sketches' grades: each pupil's row with the team's grade and
    /// their own. Sketches that cannot be read are left out. `titles`:
    /// the columns in the teacher's language.
    public func sketchSheet(_ ids: [UUID], pupils: GradedPupils, dialect: SpreadsheetDialect,
                            titles: [String] = GradeSheet.columns) -> String {
        var sheet = GradeSheet()
        for id in ids {
            guard let doc = try? sketch(id) else { continue }
            let kept = (try? records(id)) ?? []
            var own: [String: GradeRecord] = [:]
            for author in ContributionStats(document: doc).authors.map(\.author) {
                own[author] = pupils.grade(for: author, among: kept)
            }
            sheet.add(doc, grade: kept.last { $0.pupilId == nil }, pupilGrades: own)
        }
        return sheet.csv(dialect, titles: titles)
    }

    /// Buchstaben Post results per pupil, with their grade.
    public func gameSheet(pupils: GradedPupils, dialect: SpreadsheetDialect,
                          titles: [String] = GameStatsSheet.columns) throws -> String {
        var sheet = GameStatsSheet()
        for name in try players() {
            let kept = pupils.gameTargets(for: name).flatMap { (try? records($0)) ?? [] }
            sheet.add(try results(name), grade: pupils.grade(for: name, among: kept))
        }
        return sheet.csv(dialect, titles: titles)
    }
}
