import Foundation
import LearnModel
import LearnStore

/// The teacher's word lists as the teacher's window keeps them: saved,
/// deleted, and given to classes. Each change goes to every device of the
/// school, so it asks for a sync round.
public struct WordListShelf: Sendable {
    public var save: @Sendable (_ pool: WordPool) throws -> Void
    public var delete: @Sendable (_ id: String) throws -> Void
    /// The classes a list is given to, by id.
    public var assignedClasses: @Sendable (_ poolID: String) throws -> [SchoolClassID]
    public var setAssignment: @Sendable (_ poolID: String, _ assignment: PoolAssignment) throws -> Void
    /// Asks for a sync round.
    public var changed: @Sendable () -> Void

    public init(save: @escaping @Sendable (WordPool) throws -> Void,
                delete: @escaping @Sendable (String) throws -> Void,
                assignedClasses: @escaping @Sendable (String) throws -> [SchoolClassID],
                setAssignment: @escaping @Sendable (String, PoolAssignment) throws -> Void,
                changed: @escaping @Sendable () -> Void) {
        self.save = save
        self.delete = delete
        self.assignedClasses = assignedClasses
        self.setAssignment = setAssignment
        self.changed = changed
    }

    public static func live(_ store: LocalStore, changed: @escaping @Sendable () -> Void) -> WordListShelf {
        WordListShelf(save: { try store.savePool($0) }, delete: { _ = try store.deletePool(id: $0) },
                      assignedClasses: { try store.assignedClasses(poolID: $0).map { SchoolClassID($0) } },
                      setAssignment: { try store.setPoolAssignment(poolID: $0, $1) }, changed: changed)
    }

    /// Without a store: every call throws `StoreUnavailable`.
    public static let unavailable = WordListShelf(
        save: { _ in throw StoreUnavailable() }, delete: { _ in throw StoreUnavailable() },
        assignedClasses: { _ in throw StoreUnavailable() }, setAssignment: { _, _ in throw StoreUnavailable() },
        changed: {})

    public func keep(_ pool: WordPool) throws {
        try save(pool)
        changed()
    }

    public func throwAway(_ id: String) throws {
        try delete(id)
        changed()
    }

    /// Gives the list to a class, or takes it back (`given` false).
    public func give(_ poolID: String, to classID: SchoolClassID, _ given: Bool, now: Date) throws {
        try setAssignment(poolID, PoolAssignment(classId: classID.text, assigned: given, at: UnixMilliseconds.milliseconds(now)))
        changed()
    }
}
