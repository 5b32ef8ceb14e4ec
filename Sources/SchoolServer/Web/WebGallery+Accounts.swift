import Foundation
import Hummingbird
import LearnModel
import SchoolServerAPI

/// Teacher accounts in the web gallery, for a teacher at home without the
/// teacher's window: every teacher changes their own password; the school's
/// admin also sees every teacher, adds one and gives one a new password.
/// The pages ask the API's handlers, which decide who may; every form
/// carries the session's form value.
extension WebGallery {
    func registerAccounts(on gallery: RouterGroup<ServerRequestContext>) {
        gallery.get("account") { request, _ in try await page(request) { try await accountPage(&$0) } }
        gallery.post("account/password") { request, _ in try await page(request) { try await changeOwnPassword(&$0) } }
        gallery.post("teachers") { request, _ in try await page(request) { try await addTeacher(&$0) } }
        gallery.post("teachers/:id/password") { request, context in
            try await page(request) { try await resetPassword(&$0, id: try context.parameters.require("id")) }
        }
    }

    private func accountPage(_ v: inout Visit, notice: WebText? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let session = v.session else { return redirect("/gallery/signin") }
        let account = try await me()
        guard account.role == .teacher else { throw Problem.teachersOnly }
        let token = WebCookies.formToken(session: session.text)
        var data: [String: Any] = ["formToken": token]
        if let notice { data["notice"] = notice.text(v.language) }
        if account.admin == true, case .ok(let ok) = try await api.listTeachers(.init()), case .json(let teachers) = ok.body {
            data["admin"] = true
            data["teachers"] = teachers.map {
                ["id": $0.id, "name": $0.name, "isAdmin": $0.admin, "initial": Self.initial($0.name), "formToken": token] as [String: Any]
            }
        }
        return render(v, "account", heading: WebText.teacherAccounts.text(v.language), data, account: account, status: status)
    }

    private func changeOwnPassword(_ v: inout Visit) async throws -> Response {
        guard let form = try await signedForm(v) else { return expired(v) }
        let new = form["new"] ?? ""
        switch NewTeacherPassword.problem(new, repeated: form["again"] ?? "") {
        case .notTheSame?: return try await accountPage(&v, notice: .passwordsDiffer, status: .badRequest)
        case _?: return try await accountPage(&v, notice: .passwordRule, status: .badRequest)
        case nil: break
        }
        guard try await me().role == .teacher else { throw Problem.teachersOnly }
        do {
            _ = try await api.changeOwnPassword(.init(body: .json(.init(currentPassword: String((form["current"] ?? "").prefix(200)),
                                                                        newPassword: new))))
        } catch let problem as Problem where problem.code == .forbidden {
            return try await accountPage(&v, notice: .wrongCurrentPassword, status: .forbidden)
        } catch let problem as Problem where problem.code == .tooManyAttempts {
            return try await accountPage(&v, notice: .tooManyTries, status: .tooManyRequests)
        }
        return try await accountPage(&v, notice: .passwordChanged)
    }

    private func addTeacher(_ v: inout Visit) async throws -> Response {
        guard let form = try await signedForm(v) else { return expired(v) }
        let password = form["password"] ?? ""
        guard let name = PersonName(String((form["name"] ?? "").prefix(200))) else {
            return try await accountPage(&v, notice: .nameRule, status: .badRequest)
        }
        if NewTeacherPassword.problem(password) != nil { return try await accountPage(&v, notice: .passwordRule, status: .badRequest) }
        do {
            _ = try await api.createTeacher(.init(body: .json(.init(name: name.text, password: password))))
        } catch let problem as Problem where problem.code == .conflict {
            return try await accountPage(&v, notice: .teacherExists, status: .conflict)
        }
        return try await accountPage(&v, notice: .teacherAdded)
    }

    private func resetPassword(_ v: inout Visit, id: String) async throws -> Response {
        guard let form = try await signedForm(v) else { return expired(v) }
        let password = form["password"] ?? ""
        if NewTeacherPassword.problem(password) != nil { return try await accountPage(&v, notice: .passwordRule, status: .badRequest) }
        _ = try await api.resetTeacherPassword(.init(path: .init(teacherId: String(id.prefix(40))), body: .json(.init(password: password))))
        return try await accountPage(&v, notice: .passwordSet)
    }
}
