import AsyncHTTPClient
import Foundation
import OpenAPIRuntime
import SchoolServerAPI
import LearnModel
import TeamsketchCore

/// People who change, as the teacher's window asks for it: pupils renamed,
/// moved and removed, teacher accounts the school's admin makes, passwords.
extension SchoolServerClient {
    public typealias PeopleRefusal = SchoolOffice.Refusal
    public typealias TeacherEntry = SchoolOffice.Teacher
    public typealias PupilFootprint = SchoolOffice.Footprint

    public func renamePupil(_ pupilID: AccountID, to name: String, token: String) async throws(PeopleRefusal) {
        try await call(token) { try await $0.renamePupil(path: .init(pupilId: pupilID.text), body: .json(.init(name: name))) }
    }

    public func movePupil(_ pupilID: AccountID, toClass classID: SchoolClassID, token: String) async throws(PeopleRefusal) {
        try await call(token) { try await $0.movePupil(path: .init(pupilId: pupilID.text), body: .json(.init(classId: classID.text))) }
    }

    public func pupilFootprint(_ pupilID: AccountID, token: String) async throws(PeopleRefusal) -> PupilFootprint {
        let output = try await call(token) { try await $0.getPupilRecord(path: .init(pupilId: pupilID.text)) }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw .connection(.refused(status: 200, message: "unreadable answer")) }
        return PupilFootprint(name: body.pupil.name, sketches: max(0, body.sketches), teamSketches: max(0, body.teamSketches),
                              gameRounds: max(0, body.gameRounds), grades: max(0, body.grades))
    }

    public func removePupil(_ pupilID: AccountID, token: String) async throws(PeopleRefusal) {
        try await call(token) { try await $0.removePupil(path: .init(pupilId: pupilID.text)) }
    }

    /// Everything the server holds of the pupil, as the zip it makes (at
    /// most 1 GiB is read: a year of a pupil's work is far less). The
    /// server draws every sketch before it answers, which for a long year
    /// takes minutes, so this waits up to ten on a connection of its own
    /// rather than the half minute every other call gets.
    public func exportPupil(_ pupilID: AccountID, token: String) async throws(PeopleRefusal) -> [UInt8] {
        let patient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                 configuration: HTTPClient.Configuration(
                                     tlsConfiguration: tls, timeout: .init(connect: .seconds(5), read: .seconds(600))))
        let result: Result<[UInt8], PeopleRefusal>
        do {
            let output = try await call(token, timeout: .seconds(600), http: patient) {
                try await $0.exportPupil(path: .init(pupilId: pupilID.text))
            }
            if case .ok(let ok) = output, case .applicationZip(let body) = ok.body {
                do {
                    result = .success(try await [UInt8](collecting: body, upTo: 1 << 30))
                } catch {
                    result = .failure(.connection(Self.unreachable(error)))
                }
            } else {
                result = .failure(.connection(.refused(status: 200, message: "unreadable answer")))
            }
        } catch {
            result = .failure(error)
        }
        try? await patient.shutdown()
        return try result.get()
    }

    /// How many days the school keeps an archived class; nil: until its
    /// pupils are removed.
    public func archiveRetention(token: String) async throws(PeopleRefusal) -> Int? {
        let output = try await call(token) { try await $0.getRetention() }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw .connection(.refused(status: 200, message: "unreadable answer")) }
        return body.days
    }

    /// `.forbidden` for anyone but the school's admin.
    public func setArchiveRetention(days: Int?, token: String) async throws(PeopleRefusal) {
        try await call(token) { try await $0.setRetention(body: .json(.init(days: days))) }
    }

    /// Every teacher account; `.forbidden` for anyone but the school's admin.
    public func listTeachers(token: String) async throws(PeopleRefusal) -> [TeacherEntry] {
        let output = try await call(token) { try await $0.listTeachers() }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw .connection(.refused(status: 200, message: "unreadable answer")) }
        return try body.map { t throws(PeopleRefusal) in
            do throws(SchoolConnectionError) {
                return TeacherEntry(id: try .answered(t.id), name: t.name, isAdmin: t.admin, classCount: max(0, t.classCount))
            } catch {
                throw .connection(error)
            }
        }
    }

    public func createTeacher(named name: String, password: String, token: String) async throws(PeopleRefusal) {
        try await call(token) { try await $0.createTeacher(body: .json(.init(name: name, password: password))) }
    }

    public func resetTeacherPassword(_ teacherID: AccountID, to password: String, token: String) async throws(PeopleRefusal) {
        try await call(token) {
            try await $0.resetTeacherPassword(path: .init(teacherId: teacherID.text), body: .json(.init(password: password)))
        }
    }

    /// `.forbidden` when `current` is not the teacher's password.
    public func changeOwnPassword(from current: String, to new: String, token: String) async throws(PeopleRefusal) {
        try await call(token) {
            try await $0.changeOwnPassword(body: .json(.init(currentPassword: current, newPassword: new)))
        }
    }

    /// Calls the server as `token`; an answer that is not a success is
    /// thrown as what it says. The generated outputs are enums whose case
    /// names are the answers' (`ok`, `conflict` …), which is what is read.
    @discardableResult
    private func call<Output: Sendable>(_ token: String, timeout: Duration = .seconds(60), http: HTTPClient? = nil,
                                        _ body: (Client) async throws -> Output) async throws(PeopleRefusal) -> Output {
        let output: Output
        do {
            output = try await body(Self.client(address, http ?? self.http, token: token, timeout: timeout))
        } catch {
            throw .connection(Self.unreachable(error))
        }
        switch Mirror(reflecting: output).children.first?.label ?? String(describing: output) {
        case "ok", "created", "noContent": return output
        case "conflict": throw .conflict
        case "forbidden": throw .forbidden
        case "notFound": throw .notFound
        case "badRequest", "contentTooLarge": throw .badRequest
        case "tooManyRequests": throw .tooManyTries
        case "unauthorized": throw .connection(.signedOut)
        default: throw .connection(.refused(status: 0, message: String(describing: output).prefix(300).description))
        }
    }
}
