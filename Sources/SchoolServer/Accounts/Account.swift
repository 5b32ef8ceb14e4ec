import Foundation

/// A teacher or a pupil, as the server knows them.
public struct Account: Sendable, Hashable {
    public enum Role: String, Sendable {
        case teacher, pupil
    }

    public var id: UUID
    public var role: Role
    public var name: String
    /// A pupil's class; nil for teachers.
    public var classID: UUID?

    public init(id: UUID, role: Role, name: String, classID: UUID? = nil) {
        self.id = id
        self.role = role
        self.name = name
        self.classID = classID
    }
}

/// A class and how many pupils it has.
public struct SchoolClass: Sendable, Hashable {
    public var id: UUID
    public var teacherID: UUID
    public var name: String
    public var pupilCount: Int
    /// Put away by its teacher: no pupil of it can sign in, and it is
    /// listed only to its teacher when asked for, to be restored.
    public var archived: Bool = false
    /// What the teacher hands out for a new device (`ClassCode`).
    public var code: ClassCode?
    /// For the class's teacher and pupils only (`ClassWatchKey`).
    public var watchKey: ClassWatchKey?
}

/// A pupil as their teacher sees them.
public struct PupilRecord: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var classID: UUID
    public var hasPicturePassword: Bool
}
