import Foundation
import OpenAPIRuntime
import SchoolServerAPI

/// People who change. The school's admin (its first teacher account, made
/// when the server was set up) makes teacher accounts and gives a teacher
/// who forgot theirs a new password; every teacher changes their own. A
/// pupil's teacher renames them, moves them into another of their classes
/// or removes them with everything of theirs, after reading what goes.
extension SchoolAPI {
    // MARK: teachers and passwords

    func isAdmin(_ account: Account) async throws -> Bool {
        guard account.role == .teacher else { return false }
        return try await database { try await store.adminID() } == account.id
    }

    /// The admin's account; 403 for anyone else.
    func signedInAdmin() async throws -> Account {
        let teacher = try await signedInTeacher()
        guard try await isAdmin(teacher) else { throw Problem(.forbidden, "only the school's admin may do this") }
        return teacher
    }

    func listTeachers(_ input: Operations.ListTeachers.Input) async throws -> Operations.ListTeachers.Output {
        _ = try await signedInAdmin()
        let (teachers, admin) = try await database { (try await store.teachers(), try await store.adminID()) }
        return .ok(.init(body: .json(teachers.map { Self.schema($0, admin: $0.id == admin) })))
    }

    func createTeacher(_ input: Operations.CreateTeacher.Input) async throws -> Operations.CreateTeacher.Output {
        _ = try await signedInAdmin()
        try requireRoom()
        let body = switch input.body { case .json(let body): body }
        guard let name = PersonName(body.name) else { throw Problem(.badRequest, "a teacher's name needs 1–64 characters") }
        let password = try Self.newPassword(body.password)
        let hash = try await hasher { try await $0.hash(password) }
        let now = now
        switch try await database({ try await store.createTeacher(name, passwordHash: hash, now: now) }) {
        case .created(let teacher):
            logger.info("teacher account made", metadata: ["account": "\(teacher.id.key)"])
            return .created(.init(body: .json(Self.schema(.init(id: teacher.id, name: teacher.name, classCount: 0), admin: false))))
        case .nameTaken:
            throw Problem(.conflict, "there is already a teacher called \(name.text)")
        case .schoolFull:
            throw Problem(.conflict, "a school may have at most \(AccountStore.maxTeachers) teachers")
        }
    }

    func resetTeacherPassword(_ input: Operations.ResetTeacherPassword.Input) async throws -> Operations.ResetTeacherPassword.Output {
        _ = try await signedInAdmin()
        let teacherID = try Self.id(input.path.teacherId)
        let body = switch input.body { case .json(let body): body }
        let password = try Self.newPassword(body.password)
        guard try await database({ try await store.teacher(teacherID) }) != nil else { throw Problem(.notFound, "no such teacher") }
        let hash = try await hasher { try await $0.hash(password) }
        let now = now
        try await database { try await store.setTeacherPassword(hash, teacher: teacherID, keeping: nil, now: now) }
        logger.info("teacher's password reset by the admin", metadata: ["account": "\(teacherID.key)"])
        return .noContent(.init())
    }

    /// The current password is a sign-in's secret, so a wrong one counts
    /// against the account as a wrong sign-in does; it is answered 403, not
    /// 401, because the token that asked is still good.
    func changeOwnPassword(_ input: Operations.ChangeOwnPassword.Input) async throws -> Operations.ChangeOwnPassword.Output {
        let teacher = try await signedInTeacher()
        let body = switch input.body { case .json(let body): body }
        let password = try Self.newPassword(body.newPassword)
        let current = String(body.currentPassword.prefix(200))
        let key = "teacher:" + (PersonName(teacher.name)?.key ?? teacher.id.key)
        _ = try await attempt(accountKey: key, mark: nil, refusal: Problem(.forbidden, "the current password is not right")) {
            () async throws -> Account? in
            let found = try await database { try await store.teacher(teacher.id) }
            let matches = try await hasher { try await $0.verify(current, found?.1 ?? $0.decoy) }
            return matches ? found?.0 : nil
        }
        let hash = try await hasher { try await $0.hash(password) }
        let now = now
        let token = RequestInfo.current.token
        try await database { try await store.setTeacherPassword(hash, teacher: teacher.id, keeping: token, now: now) }
        return .noContent(.init())
    }

    /// 400 for a password bcrypt would cut or that is too short to keep.
    static func newPassword(_ password: String) throws -> String {
        guard Accounts.isAcceptablePassword(password) else {
            throw Problem(.badRequest, "a password has \(Accounts.minPasswordLength) to \(Accounts.maxPasswordLength) characters")
        }
        return password
    }

    // MARK: pupils

    /// A pupil of one of this teacher's classes: 404 when there is none,
    /// 403 when they are another teacher's.
    private func ownPupil(_ text: String, of teacher: Account) async throws -> PupilRecord {
        guard let pupil = try await database({ try await store.pupilRecord(try Self.id(text)) }) else {
            throw Problem(.notFound, "no such pupil")
        }
        _ = try await ownClass(pupil.classID, of: teacher)
        return pupil
    }

    func getPupilRecord(_ input: Operations.GetPupilRecord.Input) async throws -> Operations.GetPupilRecord.Output {
        let teacher = try await signedInTeacher()
        let pupil = try await ownPupil(input.path.pupilId, of: teacher)
        guard let footprint = try await database({ try await store.footprint(of: pupil.id) }) else {
            throw Problem(.notFound, "no such pupil")
        }
        return .ok(.init(body: .json(.init(pupil: Self.schema(footprint.pupil), sketches: footprint.sketches,
                                           teamSketches: footprint.teamSketches, gameRounds: footprint.gameRounds,
                                           grades: footprint.grades))))
    }

    /// The pupil's data for their family (`PupilArchive`). Each sketch is
    /// drawn like any image, one at a time within the teacher's share of
    /// the renderer, so a long year takes a while rather than every core.
    func exportPupil(_ input: Operations.ExportPupil.Input) async throws -> Operations.ExportPupil.Output {
        .ok(.init(body: .applicationZip(HTTPBody(try await pupilArchive(input.path.pupilId)))))
    }

    /// The zip of `exportPupil`, for the API and the gallery's link.
    func pupilArchive(_ pupilID: String) async throws -> [UInt8] {
        let teacher = try await signedInTeacher()
        let pupil = try await ownPupil(pupilID, of: teacher)
        guard exports.begin() else { throw Problem(.unavailable, "another pupil's data is being gathered; try again in a minute") }
        defer { exports.end() }
        guard let data = try await database({ try await store.pupilData(of: pupil.id) }) else {
            throw Problem(.notFound, "no such pupil")
        }
        var images: [UUID: [UInt8]] = [:]
        for sketch in data.sketches {
            // A renderer busy with the class waits a little, at most a
            // minute a sketch, rather than throwing the year away.
            var tries = 0
            while true {
                do {
                    images[sketch.id] = try await image(of: sketch.id, width: nil, deleted: sketch.deleted)
                    break
                } catch let problem as Problem where (problem.code == .unavailable || problem.code == .tooManyAttempts) && tries < 60 {
                    tries += 1
                    try await Task.sleep(for: .seconds(1))
                }
            }
        }
        let zip = try PupilArchive.make(data, images: images, exportedAt: now)
        logger.info("pupil's data exported", metadata: ["pupil": "\(pupil.id.key)", "teacher": "\(teacher.id.key)"])
        return zip
    }

    func renamePupil(_ input: Operations.RenamePupil.Input) async throws -> Operations.RenamePupil.Output {
        let teacher = try await signedInTeacher()
        try requireRoom()
        let pupil = try await ownPupil(input.path.pupilId, of: teacher)
        let body = switch input.body { case .json(let body): body }
        guard let name = PersonName(body.name) else { throw Problem(.badRequest, "a pupil's name needs 1–64 characters") }
        return .ok(.init(body: .json(try Self.changed(try await database { try await store.renamePupil(pupil.id, to: name) },
                                                      name: name.text))))
    }

    /// Only between the teacher's own classes: a pupil is never handed to a
    /// class whose teacher did not ask for them.
    func movePupil(_ input: Operations.MovePupil.Input) async throws -> Operations.MovePupil.Output {
        let teacher = try await signedInTeacher()
        try requireRoom()
        let pupil = try await ownPupil(input.path.pupilId, of: teacher)
        let body = switch input.body { case .json(let body): body }
        let target = try await ownClass(try Self.id(body.classId), of: teacher)
        guard !target.archived else { throw Problem(.conflict, "the class \(target.name) is archived; restore it first") }
        let now = now
        let result = try await database { try await store.movePupil(pupil.id, to: target.id, now: now) }
        logger.info("pupil moved", metadata: ["pupil": "\(pupil.id.key)", "class": "\(target.id.key)"])
        return .ok(.init(body: .json(try Self.changed(result, name: pupil.name, in: target.name))))
    }

    /// The pupil's push under way finishes first and no other starts
    /// meanwhile (in this server process; their sign-ins end at once too),
    /// so the erasure names all there is of them.
    func removePupil(_ input: Operations.RemovePupil.Input) async throws -> Operations.RemovePupil.Output {
        let teacher = try await signedInTeacher()
        let pupil = try await ownPupil(input.path.pupilId, of: teacher)
        try requireRoom()
        guard try await erase(pupil.id, by: teacher.id) else { throw Problem(.notFound, "no such pupil") }
        logger.info("pupil erased", metadata: ["pupil": "\(pupil.id.key)", "class": "\(pupil.classID.key)"])
        return .noContent(.init())
    }

    /// Erases a pupil once no push of theirs is under way, holding their
    /// turn meanwhile. False when there was no such pupil.
    func erase(_ pupil: UUID, by teacher: UUID, leaving: AccountStore.ClassLeaving? = nil) async throws -> Bool {
        var waited = 0
        while !pushes.begin(pupil) {
            guard waited < 300 else { throw Problem(.unavailable, "the pupil's device is sending just now; try again soon") }
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        defer { pushes.end(pupil) }
        let now = now
        return try await database { try await store.erasePupil(pupil, by: teacher, now: now, leaving: leaving) }
    }

    private static func changed(_ result: AccountStore.PupilChange, name: String, in className: String? = nil) throws
        -> Components.Schemas.Pupil {
        switch result {
        case .changed(let pupil): return schema(pupil)
        case .notFound: throw Problem(.notFound, "no such pupil")
        case .classFull: throw Problem(.conflict, "a class may have at most \(AccountStore.maxPupilsPerClass) pupils")
        case .nameTaken: throw Problem(.conflict, "\(className.map { "the class \($0)" } ?? "this class") already has a pupil called \(name)")
        }
    }

    static func schema(_ teacher: AccountStore.TeacherRecord, admin: Bool) -> Components.Schemas.Teacher {
        .init(id: teacher.id.key, name: teacher.name, admin: admin, classCount: teacher.classCount)
    }
}
