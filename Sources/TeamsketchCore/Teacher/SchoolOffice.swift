import Foundation
import LearnModel

/// What the signed-in teacher does on the school server from the teacher's
/// window: their classes and pupils, the school's teacher accounts and
/// passwords, how long archived classes are kept. One value serves one
/// teacher's sign-in (the shell makes a new one for each operation); with no
/// teacher signed in, every call throws `NoTeacher` and the window does nothing.
///
/// `live` (in SchoolClient) calls the server; tests give closures of their own.
public struct SchoolOffice: Sendable {
    public var classes: @Sendable (_ includingArchived: Bool) async throws -> [SchoolClass]
    /// Makes a class; its id.
    public var createClass: @Sendable (_ name: String) async throws -> SchoolClassID
    public var renameClass: @Sendable (_ id: SchoolClassID, _ name: String) async throws -> SchoolClass
    public var setArchived: @Sendable (_ id: SchoolClassID, _ archived: Bool) async throws -> SchoolClass
    public var pupils: @Sendable (_ classID: SchoolClassID) async throws -> [Pupil]
    /// Adds a pupil to a class; their id.
    public var addPupil: @Sendable (_ name: String, _ classID: SchoolClassID) async throws -> AccountID
    /// Gives a pupil a new picture password (indices into `PicturePassword.pictures`).
    public var setPictures: @Sendable (_ pictures: [Int], _ pupilID: AccountID) async throws -> Void
    public var renamePupil: @Sendable (_ id: AccountID, _ name: String) async throws -> Void
    public var movePupil: @Sendable (_ id: AccountID, _ classID: SchoolClassID) async throws -> Void
    public var footprint: @Sendable (_ pupilID: AccountID) async throws -> Footprint
    public var removePupil: @Sendable (_ id: AccountID) async throws -> Void
    /// Everything the server holds of a pupil, as a zip for their family.
    public var exportPupil: @Sendable (_ id: AccountID) async throws -> [UInt8]
    public var teachers: @Sendable () async throws -> [Teacher]
    public var createTeacher: @Sendable (_ name: String, _ password: String) async throws -> Void
    public var resetPassword: @Sendable (_ teacherID: AccountID, _ password: String) async throws -> Void
    public var changeOwnPassword: @Sendable (_ current: String, _ new: String) async throws -> Void
    /// Days an archived class is kept; nil: for good.
    public var archiveRetention: @Sendable () async throws -> Int?
    public var setArchiveRetention: @Sendable (_ days: Int?) async throws -> Void

    public init(classes: @escaping @Sendable (Bool) async throws -> [SchoolClass],
                createClass: @escaping @Sendable (String) async throws -> SchoolClassID,
                renameClass: @escaping @Sendable (SchoolClassID, String) async throws -> SchoolClass,
                setArchived: @escaping @Sendable (SchoolClassID, Bool) async throws -> SchoolClass,
                pupils: @escaping @Sendable (SchoolClassID) async throws -> [Pupil],
                addPupil: @escaping @Sendable (String, SchoolClassID) async throws -> AccountID,
                setPictures: @escaping @Sendable ([Int], AccountID) async throws -> Void,
                renamePupil: @escaping @Sendable (AccountID, String) async throws -> Void,
                movePupil: @escaping @Sendable (AccountID, SchoolClassID) async throws -> Void,
                footprint: @escaping @Sendable (AccountID) async throws -> Footprint,
                removePupil: @escaping @Sendable (AccountID) async throws -> Void,
                exportPupil: @escaping @Sendable (AccountID) async throws -> [UInt8],
                teachers: @escaping @Sendable () async throws -> [Teacher],
                createTeacher: @escaping @Sendable (String, String) async throws -> Void,
                resetPassword: @escaping @Sendable (AccountID, String) async throws -> Void,
                changeOwnPassword: @escaping @Sendable (String, String) async throws -> Void,
                archiveRetention: @escaping @Sendable () async throws -> Int?,
                setArchiveRetention: @escaping @Sendable (Int?) async throws -> Void) {
        self.classes = classes
        self.createClass = createClass
        self.renameClass = renameClass
        self.setArchived = setArchived
        self.pupils = pupils
        self.addPupil = addPupil
        self.setPictures = setPictures
        self.renamePupil = renamePupil
        self.movePupil = movePupil
        self.footprint = footprint
        self.removePupil = removePupil
        self.exportPupil = exportPupil
        self.teachers = teachers
        self.createTeacher = createTeacher
        self.resetPassword = resetPassword
        self.changeOwnPassword = changeOwnPassword
        self.archiveRetention = archiveRetention
        self.setArchiveRetention = setArchiveRetention
    }

    /// No teacher is signed in (any more): the call was not made.
    public struct NoTeacher: Error, Equatable {
        public init() {}
    }

    /// Every call throws `NoTeacher`.
    public static let signedOut = SchoolOffice(
        classes: { _ in throw NoTeacher() }, createClass: { _ in throw NoTeacher() },
        renameClass: { _, _ in throw NoTeacher() }, setArchived: { _, _ in throw NoTeacher() },
        pupils: { _ in throw NoTeacher() }, addPupil: { _, _ in throw NoTeacher() },
        setPictures: { _, _ in throw NoTeacher() }, renamePupil: { _, _ in throw NoTeacher() },
        movePupil: { _, _ in throw NoTeacher() }, footprint: { _ in throw NoTeacher() },
        removePupil: { _ in throw NoTeacher() }, exportPupil: { _ in throw NoTeacher() },
        teachers: { throw NoTeacher() }, createTeacher: { _, _ in throw NoTeacher() },
        resetPassword: { _, _ in throw NoTeacher() }, changeOwnPassword: { _, _ in throw NoTeacher() },
        archiveRetention: { throw NoTeacher() }, setArchiveRetention: { _ in throw NoTeacher() })

    // MARK: what the window does with several calls

    /// Every pupil of the teacher's classes, archived ones too (their work
    /// is still graded), for `TeacherRoster`.
    public func roster() async throws -> [GradedPupils.Pupil] {
        var found: [GradedPupils.Pupil] = []
        for schoolClass in try await classes(true) {
            for pupil in try await pupils(schoolClass.id) {
                guard let id = pupil.id.uuid else { continue }
                found.append(.init(id: id, name: pupil.name, classID: schoolClass.id, className: schoolClass.name))
            }
        }
        return found
    }

    /// Adds a class list to a class (`RosterImport`'s rule).
    public func importRoster(_ names: [String], into classID: SchoolClassID) async throws -> RosterImport.Outcome {
        try await RosterImport.run(names, present: { try await pupils(classID).map(\.name) },
                                   add: { _ = try await addPupil($0, classID) })
    }

    /// Gives each pupil their new pictures, one after the other; the first
    /// refusal stops it. Returns those who got theirs: only their cards
    /// may go on the sheet the teacher prints.
    /// Throws `NoTeacher` only when nobody got theirs.
    public func newPictures(_ wanted: [(pupil: Pupil, pictures: [Int])]) async throws -> [(pupil: Pupil, pictures: [Int])] {
        var given: [(pupil: Pupil, pictures: [Int])] = []
        for (pupil, pictures) in wanted {
            do {
                try await setPictures(pictures, pupil.id)
            } catch let signedOut as NoTeacher where given.isEmpty {
                throw signedOut
            } catch {
                break
            }
            given.append((pupil, pictures))
        }
        return given
    }
}
