import Foundation
import HTTPTypes
import Hummingbird
import LearnModel
import LearnRender
import Mustache
import NIOCore
import OpenAPIRuntime
import SchoolServerAPI

/// The web gallery under /gallery: pages the server renders, without
/// JavaScript, in German or English, for looking at one's sketches from
/// home. Every page asks the API's own handlers, in process, with the
/// visitor's session token: a page may show exactly what the API would
/// hand the same account, and sign-ins are counted and throttled the same
/// way. Pages never trust the browser: names are escaped by the templates,
/// every form carries a token another site cannot know, the session cookie
/// is HttpOnly and SameSite, and pictures and files answer 404 for work
/// that is not the visitor's.
struct WebGallery: Sendable {
    let api: SchoolAPI
    let secureCookies: Bool

    /// The pictures of a picture password: the first nine, as on the laptops.
    static let pictures = Array(SessionSign.Picture.allCases.prefix(9))

    func register(on router: Router<ServerRequestContext>) {
        let gallery = router.group("gallery")
        gallery.get { request, _ in try await page(request) { try await home(&$0) } }
        gallery.get("signin") { request, _ in try await page(request) { try await signInPage(&$0) } }
        gallery.post("signin") { request, _ in try await page(request) { try await signInTeacher(&$0) } }
        gallery.post("signout") { request, _ in try await page(request) { try await signOut(&$0) } }
        gallery.get("pupil") { request, _ in try await page(request) { try await classChoice(&$0, form: nil) } }
        gallery.post("pupil") { request, _ in
            try await page(request) { try await classChoice(&$0, form: WebForm(try await body(request))) }
        }
        gallery.get("pupil/:class") { request, context in
            try await page(request) { try await pupilChoice(&$0, classID: try context.parameters.require("class")) }
        }
        gallery.get("pupil/:class/:pupil") { request, context in
            try await page(request) {
                try await picturePage(&$0, classID: try context.parameters.require("class"),
                                      pupilID: try context.parameters.require("pupil"), form: nil)
            }
        }
        gallery.post("pupil/:class/:pupil") { request, context in
            try await page(request) {
                try await picturePage(&$0, classID: try context.parameters.require("class"),
                                      pupilID: try context.parameters.require("pupil"), form: WebForm(try await body(request)))
            }
        }
        gallery.get("sketches/:id") { request, context in
            try await page(request) { try await sketchPage(&$0, id: try context.parameters.require("id")) }
        }
        gallery.get("classes/:id") { request, context in
            try await page(request) { try await classPage(&$0, id: try context.parameters.require("id")) }
        }
        gallery.get("classes/:id/pupils/:pupil") { request, context in
            try await page(request) {
                try await pupilPage(&$0, classID: try context.parameters.require("id"),
                                    pupilID: try context.parameters.require("pupil"))
            }
        }
        gallery.get("classes/:id/pupils/:pupil/export.zip") { request, context in
            try await file(request) { _ in
                let pupil = try context.parameters.require("pupil")
                return (try await api.pupilArchive(pupil), "application/zip", "attachment; filename=\"pupil-\(pupil).zip\"")
            }
        }
        gallery.get("classes/:id/grades.csv") { request, context in
            try await file(request) { try await gradesCSV(classID: try context.parameters.require("id"), $0) }
        }
        gallery.get("classes/:id/games.csv") { request, context in
            try await file(request) { try await gamesCSV(classID: try context.parameters.require("id"), $0) }
        }
        gallery.get("me") { request, _ in try await page(request) { try await profilePage(&$0) } }
        gallery.get("deleted") { request, _ in try await page(request) { try await deletedPage(&$0) } }
        gallery.post("deleted/:id/restore") { request, context in
            try await page(request) { try await restore(&$0, id: try context.parameters.require("id")) }
        }
        gallery.get("deleted/:id/thumbnail.png") { request, context in
            try await file(request) { _ in try await deletedThumbnail(id: try context.parameters.require("id")) }
        }
        gallery.get("sketches/:id/thumbnail.png") { request, context in
            try await file(request) { _ in try await image(id: try context.parameters.require("id"), thumbnail: true, download: false) }
        }
        gallery.get("sketches/:id/image.png") { request, context in
            let download = request.uri.queryParameters["download"] != nil
            return try await file(request) { _ in
                try await image(id: try context.parameters.require("id"), thumbnail: false, download: download)
            }
        }
        gallery.get("sketches/:id/sketch.pdf") { request, context in
            try await file(request) { _ in try await pdf(id: try context.parameters.require("id")) }
        }
        gallery.get("people/:id/picture.png") { request, context in
            try await file(request) { _ in try await drawnPicture(try context.parameters.require("id")) }
        }
        gallery.get("pictures/:name") { request, context in
            try await file(request) { _ in try picture(try context.parameters.require("name")) }
        }
        registerAccounts(on: gallery)
        registerAssignments(on: gallery)
        gallery.get("style.css") { request, _ in
            try await file(request) { _ in (Array(WebTemplates.style.utf8), "text/css; charset=utf-8", nil) }
        }
    }

    // MARK: the visit

    /// What every page needs to know of the request.
    struct Visit {
        var request: Request
        var language: WebLanguage
        var cookies: [String: String]
        var session: BearerToken?
        var setCookies: [String] = []
        /// The browser's device mark; `newDevice` when made for this visit.
        var device: String
        var newDevice: Bool
        /// The page sent the mark: a new one is kept in a cookie.
        var sentDevice = false

        /// The mark, for a request to the API that sends it.
        mutating func deviceHeader() -> String {
            sentDevice = true
            return device
        }
    }

    private func visit(_ request: Request) -> Visit {
        let cookies = WebCookies.parse(request.headers[.cookie])
        let language = WebLanguage.pick(chosen: cookies[WebCookies.language],
                                        acceptLanguage: request.headers[.acceptLanguage])
        let session = cookies[WebCookies.session].map(BearerToken.init(text:)).flatMap { $0.isWellFormed ? $0 : nil }
        let kept = cookies[WebCookies.device].flatMap { (try? SchoolAPI.deviceKey($0)) != nil ? $0 : nil }
        return Visit(request: request, language: language, cookies: cookies, session: session,
                     device: kept ?? WebCookies.randomValue(), newDevice: kept == nil)
    }

    /// A page: the language switch, the API asked as the visitor, and every
    /// refusal turned into a page a person can read.
    func page(_ request: Request, _ body: (inout Visit) async throws -> Response) async throws -> Response {
        var v = visit(request)
        if let chosen = request.uri.queryParameters["lang"].flatMap({ WebLanguage(rawValue: String($0)) }) {
            var response = redirect(Self.localPath(request.uri.path))
            response.headers.append(HTTPField(name: .setCookie, value: WebCookies.set(WebCookies.language, chosen.rawValue,
                                                                                      secure: secureCookies, maxAge: 31_536_000)))
            return secured(response)
        }
        let info = RequestInfo(peerAddress: RequestInfo.current.peerAddress, token: v.session)
        let response = try await RequestInfo.$current.withValue(info) { () async throws -> Response in
            do {
                return try await body(&v)
            } catch let problem as Problem {
                switch problem.code {
                case .unauthorized:
                    // An expired or signed-out session: sign in again.
                    var response = redirect("/gallery/signin")
                    response.headers.append(HTTPField(name: .setCookie, value: WebCookies.clear(WebCookies.session, secure: secureCookies)))
                    return response
                case .notFound, .badRequest: return render(v, "message", heading: WebText.notFound.text(v.language),
                                                           ["message": WebText.notFound.text(v.language)], status: .notFound)
                case .forbidden: return render(v, "message", heading: WebText.notYours.text(v.language),
                                               ["message": WebText.notYours.text(v.language)], status: .forbidden)
                case .diskFull: return render(v, "message", heading: WebText.unavailable.text(v.language),
                                              ["message": WebText.diskFull.text(v.language)], status: problem.status)
                default: return render(v, "message", heading: WebText.unavailable.text(v.language),
                                       ["message": WebText.unavailable.text(v.language)], status: .serviceUnavailable)
                }
            }
        }
        var kept = response
        if v.newDevice, v.sentDevice {
            kept.headers.append(HTTPField(name: .setCookie, value: WebCookies.set(WebCookies.device, v.device, secure: secureCookies,
                                                                                  maxAge: 5 * 31_536_000)))
        }
        return secured(kept)
    }

    /// A picture or a download: a refusal is its status and nothing else.
    /// A download, made in the visitor's language.
    func file(_ request: Request,
                      _ body: (WebLanguage) async throws -> (bytes: [UInt8], type: String, disposition: String?)) async throws -> Response {
        let v = visit(request)
        let info = RequestInfo(peerAddress: RequestInfo.current.peerAddress, token: v.session)
        return try await RequestInfo.$current.withValue(info) {
            do {
                let (bytes, type, disposition) = try await body(v.language)
                var headers: HTTPFields = [.contentType: type, .cacheControl: "private, no-cache"]
                if let disposition { headers[.contentDisposition] = disposition }
                return secured(Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes))))
            } catch let problem as Problem {
                return secured(Response(status: problem.status == .badRequest ? .notFound : problem.status))
            }
        }
    }

    /// Headers every answer of the gallery carries: no scripts, no frames,
    /// no sniffing, no other site's forms or pictures.
    private func secured(_ response: Response) -> Response {
        var response = response
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    /// The page a visitor is sent back to after choosing a language: the
    /// path they asked for, rebuilt from its segments so it can only name
    /// a page of this gallery. "//evil.example" or a backslash (which some
    /// browsers read as a slash) would name another host.
    static func localPath(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.first == "gallery", path.utf8.count <= 2048,
              segments.allSatisfy({ $0 != ".." && $0 != "." && !$0.contains("\\") && !$0.contains("%") })
        else { return "/gallery" }
        return "/" + segments.joined(separator: "/")
    }

    func redirect(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path])
    }

    func body(_ request: Request) async throws -> [UInt8] {
        var request = request
        let buffer = try await request.collectBody(upTo: WebForm.maxBytes)
        return Array(buffer: buffer)
    }

    func render(_ v: Visit, _ template: String, heading: String, _ data: [String: Any],
                        account: Components.Schemas.Account? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let texts = WebText.all(v.language)
        var context = data
        context["t"] = texts
        let inner = WebTemplates.library.render(context, withTemplate: template) ?? ""
        var frame: [String: Any] = ["lang": v.language.rawValue, "heading": heading, "t": texts, "body": inner]
        if let account, let session = v.session {
            frame["account"] = ["name": account.name, "formToken": WebCookies.formToken(session: session.text)]
        }
        let html = WebTemplates.library.render(frame, withTemplate: "frame") ?? ""
        var response = Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: html)))
        for cookie in v.setCookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    // MARK: signing in and out

    private func signInPage(_ v: inout Visit, error: String? = nil, typedName: String = "",
                            status: HTTPResponse.Status = .ok) async throws -> Response {
        if v.session != nil, (try? await me()) != nil { return redirect("/gallery") }
        // Before render copies the visit: the new cookie goes with the page.
        let token = formCookie(&v)
        var data: [String: Any] = ["formToken": token, "typedName": typedName]
        // Only a real message: Mustache would print a missing one as "nil".
        if let error { data["error"] = error }
        return render(v, "signIn", heading: WebText.signIn.text(v.language), data, status: status)
    }

    /// The sign-in forms' double-submit value: the cookie's, or a new one.
    private func formCookie(_ v: inout Visit) -> String {
        if let value = v.cookies[WebCookies.form], value.utf8.count == 32, value.allSatisfy(\.isHexDigit) { return value }
        let value = WebCookies.randomValue()
        v.cookies[WebCookies.form] = value
        v.setCookies.append(WebCookies.set(WebCookies.form, value, secure: secureCookies, maxAge: 7200))
        return value
    }

    private func formIsOurs(_ v: Visit, _ form: WebForm) -> Bool {
        guard let cookie = v.cookies[WebCookies.form], let field = form["form"] else { return false }
        return WebCookies.same(cookie, field)
    }

    /// The posted form, if it carries this session's form value (every
    /// signed-in form of the gallery: signing out, restoring, accounts).
    func signedForm(_ v: Visit) async throws -> WebForm? {
        let form = WebForm(try await body(v.request))
        guard let session = v.session, let field = form["form"],
              WebCookies.same(field, WebCookies.formToken(session: session.text)) else { return nil }
        return form
    }

    /// The answer to a form without it: another site's, or a page too old.
    func expired(_ v: Visit) -> Response {
        render(v, "message", heading: WebText.formExpired.text(v.language), ["message": WebText.formExpired.text(v.language)],
               status: .forbidden)
    }

    private func signInTeacher(_ v: inout Visit) async throws -> Response {
        let form = WebForm(try await body(v.request))
        let name = String((form["name"] ?? "").prefix(200))
        guard formIsOurs(v, form) else {
            return try await signInPage(&v, error: WebText.formExpired.text(v.language), typedName: name, status: .forbidden)
        }
        do {
            let output = try await api.signInTeacher(.init(headers: .init(teamsketchDevice: v.deviceHeader()),
                                                           body: .json(.init(name: name, password: form["password"] ?? ""))))
            guard case .created(let created) = output, case .json(let signedIn) = created.body else {
                throw Problem(.unavailable, "no answer")
            }
            return signedInResponse(signedIn)
        } catch let problem as Problem where problem.code == .unauthorized || problem.code == .badRequest {
            return try await signInPage(&v, error: WebText.wrongNameOrPassword.text(v.language), typedName: name,
                                        status: .unauthorized)
        } catch let problem as Problem where problem.code == .tooManyAttempts {
            return try await signInPage(&v, error: WebText.tooManyTries.text(v.language), typedName: name,
                                        status: .tooManyRequests)
        }
    }

    /// The session lasts as long as its token (a pupil's days, a teacher's
    /// hours), so a browser closed and opened again is still signed in.
    private func signedInResponse(_ signedIn: Components.Schemas.SignedIn) -> Response {
        var response = redirect("/gallery")
        let seconds = max(0, Int(signedIn.expiresAt.timeIntervalSince(Date(timeIntervalSince1970: Double(api.now) / 1000))))
        response.headers.append(HTTPField(name: .setCookie, value: WebCookies.set(WebCookies.session, signedIn.token,
                                                                                  secure: secureCookies, maxAge: seconds)))
        return response
    }

    private func signOut(_ v: inout Visit) async throws -> Response {
        guard try await signedForm(v) != nil else { return expired(v) }
        _ = try? await api.signOut(.init())
        var response = redirect("/gallery/signin")
        response.headers.append(HTTPField(name: .setCookie, value: WebCookies.clear(WebCookies.session, secure: secureCookies)))
        return response
    }

    // MARK: a pupil signs in with pictures

    /// The classes this browser may show, and a field for a class's code
    /// (all there is on a browser no pupil signed in on yet). The code is
    /// posted with the page's form value: another site cannot make a
    /// visitor's browser spend its tries, and no kiosk's history keeps it.
    private func classChoice(_ v: inout Visit, form: WebForm?) async throws -> Response {
        var error: String?
        var status = HTTPResponse.Status.ok
        if let form, !formIsOurs(v, form) {
            (error, status) = (WebText.formExpired.text(v.language), .forbidden)
        }
        let code = status == .ok ? form?["code"] : nil
        var classes: [Components.Schemas.SignInChoice] = []
        do {
            classes = try await signInClasses(&v, code: code)
        } catch let problem as Problem where problem.code == .notFound || problem.code == .tooManyAttempts {
            error = problem.code == .notFound ? WebText.unknownClassCode.text(v.language) : WebText.tooManyTries.text(v.language)
            status = problem.status
            classes = try await signInClasses(&v, code: nil)
        }
        let choices = classes.map { ["href": "/gallery/pupil/\($0.id)", "name": $0.name, "initial": Self.initial($0.name)] }
        var data: [String: Any] = ["choices": choices, "empty": WebText.askForClassCode.text(v.language), "backHref": "/gallery/signin",
                                   "codeForm": ["formToken": formCookie(&v)]]
        if let error { data["error"] = error }
        return render(v, "choices", heading: WebText.chooseClass.text(v.language), data, status: status)
    }

    private func signInClasses(_ v: inout Visit, code: String?) async throws -> [Components.Schemas.SignInChoice] {
        guard case .ok(let ok) = try await api.listSignInClasses(.init(query: .init(code: code),
                                                                        headers: .init(teamsketchDevice: v.deviceHeader()))),
              case .json(let classes) = ok.body else {
            throw Problem(.unavailable, "no answer")
        }
        return classes
    }

    /// A class's pupils, if this browser may show them; else back to the
    /// classes (and the code field).
    private func pupils(_ v: inout Visit, inClass classID: String) async throws -> [Components.Schemas.SignInChoice]? {
        do {
            guard case .ok(let ok) = try await api.listSignInPupils(.init(path: .init(classId: classID),
                                                                           headers: .init(teamsketchDevice: v.deviceHeader()))),
                  case .json(let pupils) = ok.body
            else { throw Problem(.unavailable, "no answer") }
            return pupils
        } catch let problem as Problem where problem.code == .notFound {
            return nil
        }
    }

    private func pupilChoice(_ v: inout Visit, classID: String) async throws -> Response {
        guard let pupils = try await pupils(&v, inClass: classID) else { return redirect("/gallery/pupil") }
        let choices = pupils.map {
            ["href": "/gallery/pupil/\(classID)/\($0.id)", "name": $0.name, "initial": Self.initial($0.name)]
        }
        return render(v, "choices", heading: WebText.whoAreYou.text(v.language),
                      ["choices": choices, "empty": WebText.noPupils.text(v.language), "backHref": "/gallery/pupil"])
    }

    /// Three pictures in order, one tap (one form post) at a time; the ones
    /// chosen so far travel in the form, never in the address.
    private func picturePage(_ v: inout Visit, classID: String, pupilID: String, form: WebForm?) async throws -> Response {
        guard let pupils = try await pupils(&v, inClass: classID) else { return redirect("/gallery/pupil") }
        guard let pupil = pupils.first(where: { $0.id.lowercased() == pupilID.lowercased() }) else {
            throw Problem(.notFound, "no such pupil")
        }
        var chosen: [Int] = []
        var error: String?
        var status = HTTPResponse.Status.ok
        if let form {
            guard formIsOurs(v, form) else {
                return render(v, "message", heading: WebText.formExpired.text(v.language),
                              ["message": WebText.formExpired.text(v.language)], status: .forbidden)
            }
            chosen = Self.pictureIndices(form["chosen"] ?? "")
            if let pick = form["pick"].flatMap({ Int($0) }), Self.pictures.indices.contains(pick) { chosen.append(pick) }
            if chosen.count == 3 {
                do {
                    let output = try await api.signInPupil(.init(headers: .init(teamsketchDevice: v.deviceHeader()),
                                                                 body: .json(.init(pupilId: pupil.id, pictures: chosen))))
                    guard case .created(let created) = output, case .json(let signedIn) = created.body else {
                        throw Problem(.unavailable, "no answer")
                    }
                    return signedInResponse(signedIn)
                } catch let problem as Problem where problem.code == .unauthorized {
                    (error, status, chosen) = (WebText.notThosePictures.text(v.language), .unauthorized, [])
                } catch let problem as Problem where problem.code == .tooManyAttempts {
                    (error, status, chosen) = (WebText.tooManyTries.text(v.language), .tooManyRequests, [])
                }
            }
        }
        let pictures = Self.pictures.enumerated().map { ["index": $0.offset, "word": WebText.picture($0.element, v.language)] }
        let slots = (0..<3).map { ["filled": $0 < chosen.count] }
        let token = formCookie(&v)
        var data: [String: Any] = ["formToken": token, "chosen": chosen.map(String.init).joined(separator: "."),
                                   "pictures": pictures, "slots": slots,
                                   "backHref": "/gallery/pupil/\(classID)/\(pupil.id)"]
        if let error { data["error"] = error }
        return render(v, "pictures", heading: WebText.pickPictures.text(v.language) + " · " + pupil.name, data,
                      status: status)
    }

    /// "4.0.7" → [4, 0, 7]; at most two (the third is the tap), each 0–8,
    /// anything else starts again.
    static func pictureIndices(_ text: String) -> [Int] {
        guard !text.isEmpty, text.utf8.count <= 8 else { return [] }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count <= 2, parts.allSatisfy({ $0.map(pictures.indices.contains) == true }) else { return [] }
        return parts.compactMap { $0 }
    }

    private func picture(_ name: String) throws -> (bytes: [UInt8], type: String, disposition: String?) {
        guard name.hasSuffix(".png"), let index = Int(name.dropLast(4)), Self.pictures.indices.contains(index) else {
            throw Problem(.notFound, "no such picture")
        }
        return (Self.picturePNGs[index], "image/png", nil)
    }

    /// A pupil's own drawn picture (their avatar), for those who may see it.
    private func drawnPicture(_ id: String) async throws -> (bytes: [UInt8], type: String, disposition: String?) {
        guard let png = try await api.picture(of: try SchoolAPI.id(id)) else { throw Problem(.notFound, "no picture") }
        return ([UInt8](png), "image/png", nil)
    }

    /// Drawn once: the same nine pictures for every visitor.
    static let picturePNGs: [[UInt8]] = pictures.map { (try? SessionSignRenderer.picturePNG($0, size: 192)) ?? [] }

    // MARK: the gallery

    func me() async throws -> Components.Schemas.Account {
        guard case .ok(let ok) = try await api.getMe(.init()), case .json(let account) = ok.body else {
            throw Problem(.unauthorized, "no account")
        }
        return account
    }

    /// Sketch cards on a page; a longer list goes on over "older" links.
    static let pageSize = 60
    /// The newest sketches of each pupil on a class page; the pupil's own
    /// page has them all.
    static let classPageSketches = 8

    /// A page of the visitor's sketch cards (only one pupil's with
    /// `pupil`), and the address of the next page: `nextPath` with the
    /// cursor added.
    private func sketchCards(_ v: Visit, pupil: String? = nil, limit: Int = pageSize,
                             nextPath: String) async throws -> (cards: [[String: Any]], next: String?) {
        let before = v.request.uri.queryParameters["before"].map(String.init)
        let page = try await api.sketchPage(before: before, limit: limit, pupil: pupil)
        return (cards(page, v.language), page.next.map { "\(nextPath)?before=\($0.text)" })
    }

    private func home(_ v: inout Visit) async throws -> Response {
        guard v.session != nil else { return redirect("/gallery/signin") }
        let account = try await me()
        if account.role == .teacher {
            guard case .ok(let ok) = try await api.listClasses(.init(query: .init(archived: true))),
                  case .json(let classes) = ok.body
            else { throw Problem(.unavailable, "no answer") }
            let rows = classes.map { ["id": $0.id, "name": $0.name, "archived": $0.archived] as [String: Any] }
            return render(v, "classes", heading: WebText.myClasses.text(v.language), ["classes": rows], account: account)
        }
        let (cards, next) = try await sketchCards(v, nextPath: "/gallery")
        var data: [String: Any] = ["sketches": cards, "empty": WebText.noSketches.text(v.language),
                                   "name": account.name, "initial": Self.initial(account.name)]
        if let next { data["next"] = next }
        if try await api.picture(of: try SchoolAPI.id(account.id)) != nil { data["picture"] = account.id }
        return render(v, "sketches", heading: WebText.mySketches.text(v.language), data, account: account)
    }

    private func card(name: String, id: String, createdAt: Int64, _ language: WebLanguage) -> [String: Any] {
        ["id": id, "name": name, "date": Self.date(createdAt, language)]
    }

    private func cards(_ page: SyncStore.SketchPage<SyncStore.SketchRecord>, _ language: WebLanguage) -> [[String: Any]] {
        page.sketches.map { card(name: $0.name, id: $0.id.key, createdAt: $0.createdAt, language) }
    }

    /// What a teacher's pages know of a class: its pupils and everything
    /// the teacher may see of them, read once per page (their sketches are
    /// read a page per pupil).
    private struct ClassView {
        var pupils: [Components.Schemas.Pupil]
        var report: SchoolAPI.Report
        var pictured: Set<String>

        /// Their own grades, and their teams' grades on sketches they drew
        /// in, each with the edits it replaced.
        func grades(of pupilKey: String) -> [(grade: GradeRecord, earlier: [GradeRecord])] {
            zip(report.grades, report.earlier).filter { g, _ in
                if let pupil = g.pupilId { return pupil.text == pupilKey }
                return g.target == .sketch && report.sketches[g.targetId.text]?.authors.contains(pupilKey) == true
            }.map { ($0, $1) }
        }

        /// What a grade is for: the sketch's name, or the game.
        func work(_ g: GradeRecord, game: String) -> String {
            g.target == .sketch ? report.sketches[g.targetId.text]?.name ?? "" : game
        }

        func results(of pupilKey: String) -> [RoundResult] {
            UUID(text: pupilKey).flatMap { report.results[$0] } ?? []
        }

        func totals(of pupilKey: String) -> GameTotals? {
            UUID(text: pupilKey).flatMap { report.totals[$0] }
        }
    }

    /// `rounds`: how much of the class's Buchstaben Post the page needs.
    private func classView(_ classID: String, rounds: SchoolAPI.Rounds) async throws -> (Components.Schemas.Account, ClassView) {
        let account = try await me()
        guard account.role == .teacher else { throw Problem(.forbidden, "teachers only") }
        guard case .ok(let ok) = try await api.listPupils(.init(path: .init(classId: classID))),
              case .json(let pupils) = ok.body
        else { throw Problem(.unavailable, "no answer") }
        let view = ClassView(pupils: pupils, report: try await api.report(classID: try SchoolAPI.id(classID), rounds: rounds),
                             pictured: Set(try await api.pictures().keys))
        return (account, view)
    }

    private func classPage(_ v: inout Visit, id: String) async throws -> Response {
        let (account, view) = try await classView(id, rounds: .totals)
        var rows: [[String: Any]] = []
        for pupil in view.pupils {
            let href = "/gallery/classes/\(id)/pupils/\(pupil.id)"
            var row = pupilSummary(pupil, view, v.language)
            let page = try await api.sketchPage(before: nil, limit: Self.classPageSketches, pupil: pupil.id)
            row["sketches"] = cards(page, v.language)
            if page.next != nil { (row["next"], row["nextText"]) = (href, WebText.allSketches.text(v.language)) }
            row["href"] = href
            rows.append(row)
        }
        let named = await schoolClass(id)
        var data: [String: Any] = ["pupils": rows, "classID": id, "tasks": try await taskRows(classID: id, v.language)]
        // Only the class's teacher lists it with its code; a pupil sees none.
        if let code = named?.code, named?.archived == false { data["code"] = code }
        return render(v, "class", heading: named?.name ?? WebText.pupils.text(v.language), data, account: account)
    }

    /// One pupil for a teacher: the class page's summary, and their game
    /// week by week.
    private func pupilPage(_ v: inout Visit, classID: String, pupilID: String) async throws -> Response {
        let (account, view) = try await classView(classID, rounds: .of(try SchoolAPI.id(pupilID)))
        guard let pupil = view.pupils.first(where: { $0.id.lowercased() == pupilID.lowercased() }) else {
            throw Problem(.notFound, "no such pupil")
        }
        var data = pupilSummary(pupil, view, v.language)
        let path = "/gallery/classes/\(classID)/pupils/\(pupil.id)"
        let (cards, next) = try await sketchCards(v, pupil: pupil.id, nextPath: path)
        data["sketches"] = cards
        if let next { (data["next"], data["nextText"]) = (next, WebText.olderSketches.text(v.language)) }
        let progress = progressRows(view.results(of: pupil.id.lowercased()), v.language)
        data["progress"] = progress
        data["hasProgress"] = !progress.isEmpty
        data["backHref"] = "/gallery/classes/\(classID)"
        data["exportHref"] = path + "/export.zip"
        return render(v, "pupil", heading: pupil.name, data, account: account)
    }

    private func pupilSummary(_ pupil: Components.Schemas.Pupil, _ view: ClassView,
                              _ language: WebLanguage) -> [String: Any] {
        let key = pupil.id.lowercased()
        let grades = view.grades(of: key).map { g, earlier -> [String: Any] in
            let work = view.work(g, game: WebText.game.text(language))
            var row: [String: Any] = ["grade": g.grade.map(String.init) ?? "–", "work": work, "team": g.pupilId == nil]
            if !g.comment.isEmpty { row["comment"] = g.comment }
            if !earlier.isEmpty {
                row["hasEarlier"] = true
                row["earlier"] = earlier.map { e -> [String: Any] in
                    var edit: [String: Any] = ["grade": e.deleted ? "–" : e.grade.map(String.init) ?? "–",
                                               "at": Self.date(e.at, language)]
                    if !e.comment.isEmpty { edit["comment"] = e.comment }
                    return edit
                }
            }
            return row
        }
        var row: [String: Any] = ["name": pupil.name, "initial": Self.initial(pupil.name), "grades": grades]
        if view.pictured.contains(key) { row["picture"] = pupil.id }
        if let totals = view.totals(of: key) { row["game"] = gameRow(totals) }
        return row
    }

    private func gameRow(_ totals: GameTotals) -> [String: Any]? {
        guard totals.rounds > 0 else { return nil }
        return ["rounds": totals.rounds, "finished": totals.finished, "secondsPerWord": totals.secondsPerWord,
                "sent": totals.lettersSent, "received": totals.lettersReceived, "wrong": totals.wrongPlacements]
    }

    /// The weeks of a pupil's game, each with a bar of its finished words.
    private func progressRows(_ results: [RoundResult], _ language: WebLanguage) -> [[String: Any]] {
        let progress = GameProgress(results.compactMap { r in
            r.playedAt.map { GameProgress.Round(playedAt: $0, finished: r.finished, milliseconds: r.milliseconds,
                                                wrongPlacements: r.wrongPlacements) }
        })
        let scale = max(1, progress.mostFinished)
        return progress.weeks.map { week in
            ["week": Self.day(week.start, language), "rounds": week.rounds, "finished": week.finished, "scale": scale,
             "secondsPerWord": week.secondsPerWord.map(String.init) ?? "–", "wrong": week.wrongPlacements]
        }
    }

    /// A pupil's own page: their picture, their class and how their game
    /// goes week by week. A teacher has none; their home is their classes.
    private func profilePage(_ v: inout Visit) async throws -> Response {
        let account = try await me()
        guard account.role != .teacher else { return redirect("/gallery") }
        var data: [String: Any] = ["name": account.name, "initial": Self.initial(account.name),
                                   "sketchCount": try await api.sketchCount()]
        if try await api.picture(of: try SchoolAPI.id(account.id)) != nil { data["picture"] = account.id }
        let own = try await api.ownResults()
        let progress = progressRows(own, v.language)
        data["progress"] = progress
        data["hasProgress"] = !progress.isEmpty
        if let game = gameRow(GameTotals(own)) { data["game"] = game }
        // What the teachers said, a row per piece of work: the grade as
        // stars a child counts (and its number, for the parents), the words.
        let feedback = try await api.ownFeedback().map { work -> [String: Any] in
            var row: [String: Any] = ["work": work.name ?? (work.target == .sketch ? "–" : "Buchstaben Post"),
                                      "comment": work.feedback.comment]
            if work.target == .sketch, work.name != nil { row["href"] = "/gallery/sketches/\(work.targetID)" }
            if let stars = work.feedback.stars, let grade = work.feedback.grade {
                row["stars"] = String(repeating: "★", count: stars)
                row["unstarred"] = String(repeating: "☆", count: GradeRecord.grades.count - stars)
                row["grade"] = grade
            }
            if work.feedback.forTeam { row["team"] = WebText.forTeam.text(v.language) }
            return row
        }
        data["feedback"] = feedback
        data["hasFeedback"] = !feedback.isEmpty
        if case .ok(let ok)? = try? await api.listClasses(.init(query: .init(archived: false))),
           case .json(let classes) = ok.body, !classes.isEmpty {
            data["classes"] = classes.map(\.name).joined(separator: ", ")
        }
        return render(v, "profile", heading: WebText.myPage.text(v.language), data, account: account)
    }

    // MARK: spreadsheets

    /// Every grade and comment of a class's pupils, a row each, in the
    /// visitor's language and its spreadsheets' way (`SpreadsheetDialect`).
    private func gradesCSV(classID: String, _ language: WebLanguage) async throws
        -> (bytes: [UInt8], type: String, disposition: String?) {
        let (_, view) = try await classView(classID, rounds: .none)
        let csv = SpreadsheetDialect.forLanguage(language.rawValue)
        let (yes, no) = (SpreadsheetColumn.yes.text(language), SpreadsheetColumn.no.text(language))
        var out = csv.row([SpreadsheetColumn.pupil, .work, .team, .grade, .comment, .gradedAt].map { csv.text($0.text(language)) })
        for pupil in view.pupils {
            for (g, _) in view.grades(of: pupil.id.lowercased()) {
                let work = view.work(g, game: "Buchstaben Post")
                let at = Date(timeIntervalSince1970: Double(g.at) / 1000)
                out += csv.row([csv.text(pupil.name), csv.text(work), g.pupilId == nil ? yes : no,
                                g.grade.map(String.init) ?? "", csv.text(g.comment), SpreadsheetText.minute(at)])
            }
        }
        return (Array(out.utf8), "text/csv; charset=utf-8", "attachment; filename=\"grades.csv\"")
    }

    /// Every recorded Buchstaben Post round of a class's pupils, a row each.
    private func gamesCSV(classID: String, _ language: WebLanguage) async throws
        -> (bytes: [UInt8], type: String, disposition: String?) {
        let (_, view) = try await classView(classID, rounds: .all)
        let csv = SpreadsheetDialect.forLanguage(language.rawValue)
        let (yes, no) = (SpreadsheetColumn.yes.text(language), SpreadsheetColumn.no.text(language))
        var out = csv.row([SpreadsheetColumn.pupil, .playedAt, .word, .finished, .seconds, .lettersSent, .lettersReceived,
                           .wrongPlacements].map { csv.text($0.text(language)) })
        for pupil in view.pupils {
            for r in view.results(of: pupil.id.lowercased()) {
                out += csv.row([csv.text(pupil.name), r.playedAt.map(SpreadsheetText.minute) ?? "",
                                csv.text(r.word), r.finished ? yes : no, csv.tenths(Double(r.milliseconds) / 1000),
                                String(r.lettersSent), String(r.lettersReceived), String(r.wrongPlacements)])
            }
        }
        return (Array(out.utf8), "text/csv; charset=utf-8", "attachment; filename=\"buchstaben-post.csv\"")
    }

    private func schoolClass(_ id: String) async -> Components.Schemas.SchoolClass? {
        guard case .ok(let ok) = try? await api.listClasses(.init(query: .init(archived: true))),
              case .json(let classes) = ok.body else { return nil }
        return classes.first { $0.id.lowercased() == id.lowercased() }
    }

    // MARK: deleted sketches

    /// A teacher's sketches deleted in the last days, each with a button
    /// that brings it back.
    private func deletedPage(_ v: inout Visit) async throws -> Response {
        let account = try await me()
        guard let session = v.session else { return redirect("/gallery/signin") }
        let token = WebCookies.formToken(session: session.text)
        let page = try await api.deletedSketches(before: v.request.uri.queryParameters["before"].map(String.init),
                                                 limit: Self.pageSize)
        let rows = page.sketches.map { d -> [String: Any] in
            ["id": d.id.key, "name": d.name, "date": Self.date(d.deletedAt, v.language), "formToken": token]
        }
        var data: [String: Any] = ["sketches": rows]
        if let next = page.next { data["next"] = "/gallery/deleted?before=\(next.text)" }
        return render(v, "deleted", heading: WebText.deletedSketches.text(v.language), data, account: account)
    }

    private func restore(_ v: inout Visit, id: String) async throws -> Response {
        guard try await signedForm(v) != nil else { return expired(v) }
        guard let sketch = UUID(text: id) else { throw Problem(.notFound, "no such sketch") }
        if let refused = try await api.restoreSketch(sketch) {
            return render(v, "message", heading: WebText.deletedSketches.text(v.language),
                          ["message": WebText.cannotRestore.text(v.language)],
                          account: try await me(), status: refused.code == .forbidden ? .forbidden : .conflict)
        }
        return redirect("/gallery/deleted")
    }

    /// A deleted sketch's preview, for the teacher who may bring it back.
    private func deletedThumbnail(id: String) async throws -> (bytes: [UInt8], type: String, disposition: String?) {
        guard let sketch = UUID(text: id) else { throw Problem(.notFound, "no such sketch") }
        return (try await api.deletedThumbnail(of: sketch), "image/png", nil)
    }

    private func sketchPage(_ v: inout Visit, id: String) async throws -> Response {
        let account = try await me()
        let sketch = try await api.sketchSummary(try SchoolAPI.id(id))
        return render(v, "sketch", heading: sketch.name,
                      card(name: sketch.name, id: sketch.id.key, createdAt: sketch.createdAt, v.language), account: account)
    }

    private func image(id: String, thumbnail: Bool, download: Bool) async throws -> (bytes: [UInt8], type: String, disposition: String?) {
        let png: HTTPBody
        if thumbnail {
            guard case .ok(let ok) = try await api.getSketchThumbnail(.init(path: .init(sketchId: id))),
                  case .png(let body) = ok.body else { throw Problem(.notFound, "no such sketch") }
            png = body
        } else {
            guard case .ok(let ok) = try await api.getSketchImage(.init(path: .init(sketchId: id))),
                  case .png(let body) = ok.body else { throw Problem(.notFound, "no such sketch") }
            png = body
        }
        let bytes = try await [UInt8](collecting: png, upTo: 256 << 20)
        return (bytes, "image/png", download ? "attachment; filename=\"sketch.png\"" : nil)
    }

    private func pdf(id: String) async throws -> (bytes: [UInt8], type: String, disposition: String?) {
        let (_, bytes) = try await api.pdf(of: try SchoolAPI.id(id))
        return (bytes, "application/pdf", "attachment; filename=\"sketch.pdf\"")
    }

    // MARK: small things

    static func initial(_ name: String) -> String { name.first.map { String($0).uppercased() } ?? "?" }

    /// A week's Monday, without a time.
    static func day(_ date: Date, _ language: WebLanguage) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: language == .de ? "de_DE" : "en_GB")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateStyle = .medium
        f.timeStyle = .none
        return f.string(from: date)
    }

    static func date(_ ms: Int64, _ language: WebLanguage) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: language == .de ? "de_DE" : "en_GB")
        f.dateStyle = .medium
        f.timeStyle = .short
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
