import Foundation
import LearnModel

/// A sketch as the teacher's gallery lists it: who drew in it is learnt
/// while the thumbnails load, so it may still be unknown.
public struct TeacherSketchItem: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var modifiedAt: Date
    /// Nil until the sketch's ops were read.
    public var authors: Set<String>?

    public init(id: UUID, name: String, modifiedAt: Date, authors: Set<String>? = nil) {
        self.id = id; self.name = name; self.modifiedAt = modifiedAt; self.authors = authors
    }

    public var isTeamSketch: Bool? { authors.map { $0.count > 1 } }
}

/// What the teacher's gallery shows: by class, by pupil, by when, team or
/// alone, newest first. A sketch whose pupils are not known yet is shown
/// only when no class, pupil or kind is asked for; it joins the list once
/// they are.
public struct SketchListFilter: Equatable, Sendable {
    public enum Period: String, CaseIterable, Sendable { case all, today, week }
    public enum Kind: String, CaseIterable, Sendable { case all, team, alone }

    public var pupil: String?
    public var period: Period
    public var kind: Kind
    /// The names of a class's pupils, as its roster has them: a sketch is
    /// the class's when one of its painters is one of them (names compared
    /// as grades compare them: case and spacing aside).
    public var classPupils: Set<String>? {
        didSet { classKeys = classPupils.map { Set($0.map(GradeIdentity.normalized)) } }
    }
    private var classKeys: Set<String>?

    public init(pupil: String? = nil, period: Period = .all, kind: Kind = .all, classPupils: Set<String>? = nil) {
        self.pupil = pupil; self.period = period; self.kind = kind
        self.classPupils = classPupils
        classKeys = classPupils.map { Set($0.map(GradeIdentity.normalized)) }
    }

    public func apply(_ items: [TeacherSketchItem], now: Date, calendar: Calendar = .current) -> [TeacherSketchItem] {
        let since: Date? = switch period {
        case .all: nil
        case .today: calendar.startOfDay(for: now)
        case .week: calendar.date(byAdding: .day, value: -6, to: calendar.startOfDay(for: now))
        }
        return items.filter { item in
            if let since, item.modifiedAt < since { return false }
            if let pupil, item.authors?.contains(pupil) != true { return false }
            if let classKeys, !(item.authors ?? []).contains(where: { classKeys.contains(GradeIdentity.normalized($0)) }) {
                return false
            }
            switch kind {
            case .all: return true
            case .team: return item.isTeamSketch == true
            case .alone: return item.isTeamSketch == false
            }
        }
        .sorted { ($0.modifiedAt, $0.id.uuidString) > ($1.modifiedAt, $1.id.uuidString) }
    }

    /// Everyone who drew in any of the sketches, by name, for the pupil menu.
    public static func pupils(in items: [TeacherSketchItem]) -> [String] {
        Array(items.reduce(into: Set<String>()) { $0.formUnion($1.authors ?? []) })
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }
}
