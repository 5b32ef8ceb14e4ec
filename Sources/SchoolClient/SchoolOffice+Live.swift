import Foundation
import TeamsketchCore

extension SchoolOffice {
    /// The school server's answers, under whichever teacher `teacher` gives
    /// at the time of each call (the client and their token; nil: nobody
    /// is signed in as a teacher, and the call throws `NoTeacher`).
    public static func live(_ teacher: @escaping @Sendable () async -> (SchoolServerClient, String)?) -> SchoolOffice {
        @Sendable func signedIn() async throws -> (SchoolServerClient, String) {
            guard let found = await teacher() else { throw NoTeacher() }
            return found
        }
        return SchoolOffice(
            classes: { archived in let (c, t) = try await signedIn(); return try await c.listClasses(token: t, includingArchived: archived) },
            createClass: { name in let (c, t) = try await signedIn(); return try await c.createClass(named: name, token: t) },
            renameClass: { id, name in let (c, t) = try await signedIn(); return try await c.renameClass(id, to: name, token: t) },
            setArchived: { id, archived in let (c, t) = try await signedIn(); return try await c.setClassArchived(id, archived, token: t) },
            pupils: { id in let (c, t) = try await signedIn(); return try await c.listPupils(classID: id, token: t) },
            addPupil: { name, id in let (c, t) = try await signedIn(); return try await c.addPupil(named: name, toClass: id, token: t) },
            setPictures: { pictures, id in let (c, t) = try await signedIn(); try await c.setPictures(pictures, pupil: id, token: t) },
            renamePupil: { id, name in let (c, t) = try await signedIn(); try await c.renamePupil(id, to: name, token: t) },
            movePupil: { id, to in let (c, t) = try await signedIn(); try await c.movePupil(id, toClass: to, token: t) },
            footprint: { id in let (c, t) = try await signedIn(); return try await c.pupilFootprint(id, token: t) },
            removePupil: { id in let (c, t) = try await signedIn(); try await c.removePupil(id, token: t) },
            exportPupil: { id in let (c, t) = try await signedIn(); return try await c.exportPupil(id, token: t) },
            teachers: { let (c, t) = try await signedIn(); return try await c.listTeachers(token: t) },
            createTeacher: { name, password in
                let (c, t) = try await signedIn()
                try await c.createTeacher(named: name, password: password, token: t)
            },
            resetPassword: { id, password in let (c, t) = try await signedIn(); try await c.resetTeacherPassword(id, to: password, token: t) },
            changeOwnPassword: { old, new in let (c, t) = try await signedIn(); try await c.changeOwnPassword(from: old, to: new, token: t) },
            archiveRetention: { let (c, t) = try await signedIn(); return try await c.archiveRetention(token: t) },
            setArchiveRetention: { days in let (c, t) = try await signedIn(); try await c.setArchiveRetention(days: days, token: t) })
    }
}
