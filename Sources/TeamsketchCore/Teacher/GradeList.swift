import Foundation
import LearnModel

/// The teacher's list of every grade and comment: teams' and pupils' grades
/// of sketches and pupils' grades of their Buchstaben Post results, with the
/// work's name and date, newest work first, filtered by pupil and class.
/// Built from the stored records and what this computer knows of the works;
/// the view only paints the rows.
public struct GradeList: Sendable {
    public enum Kind: String, Sendable { case team, pupil, game }

    /// A graded sketch as this computer knows it.
    public struct SketchWork: Sendable, Equatable {
        public var name: String
        public var date: Date
        /// Who drew in it; nil while not read.
        public var authors: [String]?

        public init(name: String, date: Date, authors: [String]? = nil) {
            self.name = name; self.date = date; self.authors = authors
        }
    }

    public struct Row: Hashable, Sendable, Identifiable {
        /// The grade's id.
        public var id: String
        public var kind: Kind
        /// Nil for a sketch this computer does not have (graded elsewhere).
        public var workName: String?
        public var workDate: Date
        /// The graded pupil; empty for a team's grade.
        public var pupil: String
        public var grade: Int?
        public var comment: String
        public var gradedAt: Date
        /// The sketch to open; nil for game results and missing sketches.
        public var sketchID: UUID?
        /// Who the grade concerns: the pupil, or the team's members.
        public var pupils: [String]
        /// The classes of those pupils (empty without a roster).
        public var classIDs: Set<SchoolClassID>
    }

    public struct Filter: Equatable, Sendable {
        public var pupil: String?
        public var classID: SchoolClassID?

        public init(pupil: String? = nil, classID: SchoolClassID? = nil) { self.pupil = pupil; self.classID = classID }
    }

    public private(set) var rows: [Row]

    /// `records` by grade id; `sketches` by sketch id; `lastPlayed` the
    /// newest round of each game-results target.
    public init(records: [String: GradeRecord], sketches: [UUID: SketchWork], lastPlayed: [UUID: Date],
                pupils: GradedPupils) {
        var rows: [Row] = []
        for (id, record) in records where !record.deleted {
            // No device keeps a record with a problem; without one, its work is a UUID.
            guard record.problem == nil, let target = record.targetId.uuid else { continue }
            let gradedAt = Date(timeIntervalSince1970: Double(record.at) / 1000)
            let name = record.pupilName ?? record.pupilId.flatMap { id in
                pupils.roster.first { AccountID($0.id) == id }?.name
            } ?? ""
            switch record.target {
            case .sketch:
                let work = sketches[target]
                let members = record.pupilId == nil ? (work?.authors ?? []) : [name]
                var classes = Set<SchoolClassID>()
                for m in members {
                    classes.formUnion(pupils.classIDs(id: record.pupilId, name: m))
                }
                rows.append(Row(id: id, kind: record.pupilId == nil ? .team : .pupil, workName: work?.name,
                                workDate: work?.date ?? gradedAt, pupil: record.pupilId == nil ? "" : name,
                                grade: record.grade, comment: record.comment, gradedAt: gradedAt,
                                sketchID: work == nil ? nil : target, pupils: members,
                                classIDs: classes))
            case .wordPostGame:
                // A game's grade is always one pupil's (the server refuses others).
                guard record.pupilId != nil else { continue }
                rows.append(Row(id: id, kind: .game, workName: "Buchstaben Post", workDate: lastPlayed[target] ?? gradedAt,
                                pupil: name, grade: record.grade, comment: record.comment, gradedAt: gradedAt,
                                sketchID: nil, pupils: [name], classIDs: pupils.classIDs(id: record.pupilId, name: name)))
            }
        }
        self.rows = rows.sorted(by: Self.order)
    }

    /// Newest work first; within a work the team, then its pupils by name.
    static func order(_ a: Row, _ b: Row) -> Bool {
        if a.workDate != b.workDate { return a.workDate > b.workDate }
        let an = a.workName ?? "", bn = b.workName ?? ""
        if an != bn { return an.localizedStandardCompare(bn) == .orderedAscending }
        if (a.kind == .team) != (b.kind == .team) { return a.kind == .team }
        if a.pupil != b.pupil { return a.pupil.localizedStandardCompare(b.pupil) == .orderedAscending }
        return a.id < b.id
    }

    public func filtered(_ filter: Filter) -> [Row] {
        rows.filter { row in
            if let pupil = filter.pupil {
                let key = GradeIdentity.normalized(pupil)
                guard row.pupils.contains(where: { GradeIdentity.normalized($0) == key }) else { return false }
            }
            if let classID = filter.classID, !row.classIDs.contains(classID) { return false }
            return true
        }
    }

    /// Everyone a grade concerns, by name, for the pupil menu.
    public var pupilNames: [String] {
        var seen = Set<String>(), names: [String] = []
        for name in rows.flatMap(\.pupils) where !name.isEmpty && seen.insert(GradeIdentity.normalized(name)).inserted {
            names.append(name)
        }
        return names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }
}
