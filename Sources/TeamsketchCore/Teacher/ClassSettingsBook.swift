import Foundation
import LearnModel
import LearnStore

/// The classroom settings a teacher gives each of their classes: kept on
/// this device and sent with the next sync round (asked for at once), so
/// the pupils' devices take them when they sync.
public struct ClassSettingsBook: Sendable {
    public var read: @Sendable (_ classID: SchoolClassID) throws -> ClassSettingsRecord?
    public var write: @Sendable (_ classID: SchoolClassID, _ record: ClassSettingsRecord) throws -> Void
    /// Asks for a sync round.
    public var changed: @Sendable () -> Void

    public init(read: @escaping @Sendable (SchoolClassID) throws -> ClassSettingsRecord?,
                write: @escaping @Sendable (SchoolClassID, ClassSettingsRecord) throws -> Void,
                changed: @escaping @Sendable () -> Void) {
        self.read = read
        self.write = write
        self.changed = changed
    }

    public static func live(_ store: LocalStore, changed: @escaping @Sendable () -> Void) -> ClassSettingsBook {
        ClassSettingsBook(read: { try store.classSettings(classID: $0.text) },
                          write: { try store.setClassSettings(classID: $0.text, $1) }, changed: changed)
    }

    /// Without a store: every call throws `StoreUnavailable`.
    public static let unavailable = ClassSettingsBook(read: { _ in throw StoreUnavailable() },
                                                      write: { _, _ in throw StoreUnavailable() }, changed: {})

    /// A class's settings; the defaults for a class given none (or when
    /// they cannot be read).
    public func settings(of classID: SchoolClassID) -> ClassroomSettings {
        ((try? read(classID)) ?? nil).map(ClassroomSettings.init(record:)) ?? .defaults
    }

    public func set(_ settings: ClassroomSettings, for classID: SchoolClassID, now: Date) throws {
        try write(classID, settings.record(at: UnixMilliseconds.milliseconds(now)))
        changed()
    }
}
