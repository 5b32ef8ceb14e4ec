import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import LearnModel
import LearnRender
import NIOCore
import Testing
@testable import SchoolServer

/// The web gallery as a browser uses it: cookies kept between pages,
/// forms posted as a browser posts them. Who sees what is the API's
/// decision, so these check the pages keep to it, escape what users wrote
/// and refuse forms from elsewhere.
@Suite struct WebGalleryTests {
    /// A browser: its cookies, its language.
    final class Browser: @unchecked Sendable {
        let client: any TestClientProtocol
        var cookies: [String: String] = [:]
        var language: String?

        init(_ client: any TestClientProtocol, language: String? = nil) {
            self.client = client
            self.language = language
        }

        struct Page {
            var status: HTTPResponse.Status
            var headers: HTTPFields
            var body: [UInt8]
            var text: String { String(decoding: body, as: UTF8.self) }
            var location: String? { headers[.location] }
            var setCookies: [String] { headers[values: .setCookie] }
            /// The value of the hidden `form` field.
            var formToken: String? {
                guard let range = text.range(of: #"name="form" value=""#) else { return nil }
                return String(text[range.upperBound...].prefix { $0 != "\"" })
            }
        }

        func get(_ path: String) async throws -> Page { try await send(.get, path, body: nil) }

        func post(_ path: String, _ fields: [(String, String)]) async throws -> Page {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
                .joined(separator: "&")
            return try await send(.post, path, body: body)
        }

        private func send(_ method: HTTPRequest.Method, _ path: String, body: String?) async throws -> Page {
            var headers: HTTPFields = [:]
            if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            if let language { headers[.acceptLanguage] = language }
            if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
            let page = try await client.execute(uri: path, method: method, headers: headers,
                                                body: body.map { ByteBuffer(string: $0) }) { response in
                Page(status: response.status, headers: response.headers, body: Array(buffer: response.body))
            }
            for cookie in page.setCookies {
                let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
                if value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
            }
            return page
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeacherSignsInSeesTheirClassEscapedAndSignsOut(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("<b>2b</b>", teacher: teacher.token, pupils: ["Mia"])
            let browser = Browser(api.client)

            let first = try await browser.get("/gallery")
            #expect(first.status == .seeOther && first.location == "/gallery/signin")
            let form = try await browser.get("/gallery/signin")
            #expect(form.status == .ok && !form.text.contains("nil"), "no message, and none printed as nil")
            #expect(form.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let token = try #require(form.formToken)

            // A form posted without the page's token (another site's) is refused.
            let forged = try await Browser(api.client).post("/gallery/signin", [("name", "Frau Berg"), ("password", "correct horse")])
            #expect(forged.status == .forbidden && forged.setCookies.allSatisfy { !$0.hasPrefix("ts_session=") })

            let wrong = try await browser.post("/gallery/signin", [("form", token), ("name", "Frau Berg"), ("password", "nope")])
            #expect(wrong.status == .unauthorized && wrong.text.contains("do not match"))

            let signedIn = try await browser.post("/gallery/signin", [("form", token), ("name", "Frau Berg"),
                                                                    ("password", "correct horse")])
            #expect(signedIn.status == .seeOther && signedIn.location == "/gallery")
            let session = try #require(signedIn.setCookies.first { $0.hasPrefix("ts_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Lax") && session.contains("Path=/gallery"))

            let home = try await browser.get("/gallery")
            #expect(home.status == .ok)
            #expect(home.text.contains("&lt;b&gt;2b&lt;/b&gt;") && !home.text.contains("<b>2b</b>"), "a class's name is escaped")
            let classPage = try await browser.get("/gallery/classes/\(klass.id)")
            #expect(classPage.status == .ok && classPage.text.contains("Mia"))
            #expect(!klass.code.isEmpty && classPage.text.contains("<strong>\(klass.code)</strong>"), "the code to hand out")

            // Signing out needs the page's own token too.
            let signOutToken = try #require(home.formToken)
            #expect(try await browser.post("/gallery/signout", [("form", "0000")]).status == .forbidden)
            let out = try await browser.post("/gallery/signout", [("form", signOutToken)])
            #expect(out.status == .seeOther && out.location == "/gallery/signin")
            #expect(try await api.call(.get, "/me", token: String(session.split(separator: ";")[0].dropFirst(11))).status
                    == .unauthorized, "the session's token is revoked, not only the cookie dropped")
            #expect(try await browser.get("/gallery").location == "/gallery/signin")
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilSignsInWithPicturesAndSeesOnlyTheirOwnSketches(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mias = UUID(), oles = UUID()
            for (sketch, pupil, name) in [(mias, "Mia", "Mias <Haus>"), (oles, "Ole", "Oles Boot")] {
                let pushed = try await api.push([Changes.create(sketch, name: name), Changes.stroke(sketch, author: pupil)],
                                                token: klass.pupils[pupil]!.token)
                #expect(pushed.accepted.count == 2)
            }
            let browser = Browser(api.client, language: "de-DE,de;q=0.9,en;q=0.5")
            // A new computer shows no class, only the field for the code.
            let none = try await browser.get("/gallery/pupil")
            #expect(none.text.contains("Frag deine Lehrerin") && none.text.contains(#"name="code""#)
                    && !none.text.contains("/gallery/pupil/\(klass.id)"))
            #expect(try await browser.get("/gallery/pupil/\(klass.id)").location == "/gallery/pupil")
            #expect(try await browser.get("/gallery/pupil?code=\(klass.code)").text.contains("/gallery/pupil/\(klass.id)") == false,
                    "a code in the address does nothing")
            let forged = try await browser.post("/gallery/pupil", [("form", "0000"), ("code", klass.code)])
            #expect(forged.status == .forbidden && !forged.text.contains("/gallery/pupil/\(klass.id)"), "another site's form")
            let wrong = try await giveCode("AAAA-AAAA", browser)
            #expect(wrong.status == .notFound && wrong.text.contains("kein Klassen-Code"))
            // The teacher's code, typed as read out; the browser keeps it.
            let classes = try await giveCode(" " + klass.code.lowercased().replacingOccurrences(of: "-", with: " "), browser)
            #expect(classes.text.contains("Welche ist deine Klasse?") && classes.text.contains("/gallery/pupil/\(klass.id)"))
            #expect(try await browser.get("/gallery/pupil").text.contains("/gallery/pupil/\(klass.id)"))
            let mia = klass.pupils["Mia"]!.id
            let pictures = try await browser.get("/gallery/pupil/\(klass.id)/\(mia)")
            #expect(pictures.status == .ok && pictures.text.contains(#"alt="Mond""#))
            let token = try #require(pictures.formToken)

            // Wrong pictures: told so, not signed in.
            var page = try await browser.post("/gallery/pupil/\(klass.id)/\(mia)", [("form", token), ("chosen", "3.2"), ("pick", "1")])
            #expect(page.status == .unauthorized && page.text.contains("nicht deine Bilder"))
            // One tap at a time: 1, then 2, then 3.
            page = try await browser.post("/gallery/pupil/\(klass.id)/\(mia)", [("form", token), ("chosen", ""), ("pick", "1")])
            #expect(page.status == .ok && page.text.contains(#"name="chosen" value="1""#))
            page = try await browser.post("/gallery/pupil/\(klass.id)/\(mia)", [("form", token), ("chosen", "1"), ("pick", "2")])
            page = try await browser.post("/gallery/pupil/\(klass.id)/\(mia)", [("form", token), ("chosen", "1.2"), ("pick", "3")])
            #expect(page.status == .seeOther && page.location == "/gallery")

            let home = try await browser.get("/gallery")
            #expect(home.text.contains("Meine Bilder") && home.text.contains("Mias &lt;Haus&gt;"))
            #expect(!home.text.contains("Oles Boot"), "another pupil's sketch is not listed")
            let own = try await browser.get("/gallery/sketches/\(mias.uuidString.lowercased())")
            #expect(own.status == .ok && own.text.contains("sketch.pdf"))
            let thumbnail = try await browser.get("/gallery/sketches/\(mias.uuidString.lowercased())/thumbnail.png")
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/png"
                    && thumbnail.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let pdf = try await browser.get("/gallery/sketches/\(mias.uuidString.lowercased())/sketch.pdf")
            #expect(pdf.status == .ok && pdf.body.starts(with: Array("%PDF".utf8))
                    && pdf.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            for path in ["/gallery/sketches/\(oles)", "/gallery/sketches/\(oles)/thumbnail.png",
                         "/gallery/sketches/\(oles)/image.png", "/gallery/sketches/\(oles)/sketch.pdf"] {
                #expect(try await browser.get(path.lowercased()).status == .notFound, "\(path) is Ole's")
            }
            // A teacher's page is not a pupil's.
            #expect(try await browser.get("/gallery/classes/\(klass.id)").status == .forbidden)

            // The language links switch and remember.
            let switched = try await browser.get("/gallery?lang=en")
            #expect(switched.status == .seeOther && switched.location == "/gallery")
            #expect(try await browser.get("/gallery").text.contains("My sketches"))
        }
    }

    @Test(arguments: Backend.allCases)
    func theTeachersClassPageShowsGradesCommentsAndGameResults(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch, name: "Haus"), Changes.stroke(sketch, author: "Mia")], token: mia.token)
            let played = round("Mia", word: "Baum", finished: true, milliseconds: 42_000, wrong: 1,
                               playedAt: Date(timeIntervalSinceReferenceDate: 800_000_000))
            #expect(try await api.push([played], token: mia.token).accepted.count == 1)
            let grade = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(mia.id),
                                    pupilName: "Mia", grade: 2, comment: "<Toll> gemalt", at: 1_790_000_000_000)
            let team = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), grade: 3, comment: "",
                                   at: 1_790_000_000_000)
            let graded = try await api.push([Changes.grade(grade),
                                             Changes.grade(team)],
                                            token: teacher.token)
            #expect(graded.accepted.count == 2, "\(graded.rejected)")

            // Mia drew her picture on a laptop.
            let avatar = Data(try SessionSignRenderer.picturePNG(.sun, size: 64))
            let profile = ProfileRecord(name: "Mia", avatarPNG: avatar, at: 1_790_000_000_000)
            #expect(try await api.push([Changes.record("profile", mia.id.lowercased(), profile)], token: mia.token)
                .accepted.count == 1)

            let browser = Browser(api.client, language: "de")
            try await signInTeacher(browser)
            let page = try await browser.get("/gallery/classes/\(klass.id)")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("Note 2") && text.contains("&lt;Toll&gt; gemalt") && !text.contains("<Toll>"))
            #expect(text.contains("Note 3") && text.contains("für das Team"))
            #expect(text.contains("<th scope=\"row\">Runden</th><td>1</td>") && text.contains("<td>42</td>"))
            #expect(text.contains("/gallery/people/\(mia.id)/picture.png"))
            let picture = try await browser.get("/gallery/people/\(mia.id)/picture.png")
            #expect(picture.status == .ok && picture.body == [UInt8](avatar))
            #expect(try await browser.get("/gallery/people/\(klass.pupils["Ole"]!.id)/picture.png").status == .notFound)
            // Ole has none of it.
            let ole = try #require(text.range(of: "Ole</a></h2>"))
            #expect(!text[ole.upperBound...].contains("Note 2") && text[ole.upperBound...].contains("Noch keine Noten."))
        }
    }

    /// A round as a laptop pushes it; `playedAt` in seconds since 2001, as
    /// Foundation's encoder writes dates.
    private func round(_ pupil: String, word: String, finished: Bool, milliseconds: Any, wrong: Int = 0,
                       playedAt: Date) -> [String: Any] {
        let round: [String: Any] = ["id": UUID().uuidString, "gameID": UUID().uuidString, "round": 1, "playerName": pupil,
                                    "word": word, "finished": finished, "milliseconds": milliseconds, "lettersSent": 3,
                                    "lettersReceived": 2, "wrongPlacements": wrong,
                                    "playedAt": playedAt.timeIntervalSinceReferenceDate]
        let payload = try! JSONSerialization.data(withJSONObject: round)
        return Changes.change(UUID(), "wordPostRoundStat", UUID().uuidString.lowercased(), payload)
    }

    private func signInTeacher(_ browser: Browser) async throws {
        let form = try await browser.get("/gallery/signin")
        let page = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Frau Berg"),
                                                              ("password", "correct horse")])
        #expect(page.status == .seeOther)
    }

    /// The class's code typed into the class page's form, as on a new computer.
    private func giveCode(_ code: String, _ browser: Browser) async throws -> Browser.Page {
        let token = try #require(try await browser.get("/gallery/pupil").formToken)
        return try await browser.post("/gallery/pupil", [("form", token), ("code", code)])
    }

    /// The test pupils' pictures are the second, third and fourth; the
    /// browser is given the class's code first, as on a new computer.
    private func signInPupil(_ browser: Browser, _ klass: TestClass, pupilID: String) async throws {
        #expect(try await giveCode(klass.code, browser).text.contains("/gallery/pupil/\(klass.id)"))
        let path = "/gallery/pupil/\(klass.id)/\(pupilID)"
        let token = try #require(try await browser.get(path).formToken)
        let page = try await browser.post(path, [("form", token), ("chosen", "1.2"), ("pick", "3")])
        #expect(page.status == .seeOther && page.location == "/gallery")
    }

    /// 70 sketches of Mia's, 61 of them deleted later: every list shows a
    /// page and a big "older" link to the rest, the class page a few of
    /// each pupil and a link to all; a sketch on a later page still opens
    /// and its grade still has its name.
    @Test(arguments: Backend.allCases)
    func longListsGoOnOverPagesAndNothingIsCut(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let mia = klass.pupils["Mia"]!
            let sketches = (0..<70).map { _ in UUID() }
            for (i, sketch) in sketches.enumerated() {
                #expect(try await api.push([Changes.create(sketch, name: "Bild \(i)")], token: mia.token).accepted.count == 1)
                api.clock.advance(seconds: 1)
            }
            let oldest = sketches[0].key
            let team = GradeRecord(target: .sketch, targetId: GradedWorkID(oldest), grade: 1, comment: "", at: 1_790_000_000_000)
            #expect(try await api.push([Changes.grade(team)], token: berg).accepted.count == 1)
            func cards(_ page: Browser.Page) -> Int { page.text.components(separatedBy: "/thumbnail.png\"").count - 1 }
            func older(_ page: Browser.Page) -> String? {
                guard let range = page.text.range(of: #"rel="next" href=""#) else { return nil }
                return String(page.text[range.upperBound...].prefix { $0 != "\"" })
            }

            let pupil = Browser(api.client, language: "de")
            try await signInPupil(pupil, klass, pupilID: mia.id)
            let home = try await pupil.get("/gallery")
            #expect(cards(home) == 60 && home.text.contains("Bild 69") && !home.text.contains("Bild 9<"))
            #expect(home.text.contains("Ältere Bilder"))
            let second = try await pupil.get(try #require(older(home)))
            #expect(cards(second) == 10 && second.text.contains("Bild 9<") && older(second) == nil)
            #expect(try await pupil.get("/gallery/sketches/\(oldest)").text.contains("Bild 0"))
            #expect(try await pupil.get("/gallery/me").text.contains("<td>70</td>"))
            #expect(try await pupil.get("/gallery?before=nonsense").status == .notFound)

            let teacher = Browser(api.client, language: "de")
            try await signInTeacher(teacher)
            let classPage = try await teacher.get("/gallery/classes/\(klass.id)")
            let pupilPath = "/gallery/classes/\(klass.id)/pupils/\(mia.id)"
            #expect(cards(classPage) == 8 && older(classPage) == pupilPath && classPage.text.contains("Alle Bilder"))
            #expect(classPage.text.contains("Note 1") && classPage.text.contains("Bild 0 (für das Team)"),
                    "the oldest sketch's team grade, named")
            let pupilPage = try await teacher.get(pupilPath)
            #expect(cards(pupilPage) == 60 && pupilPage.text.contains("Ältere Bilder"))
            let pupilRest = try await teacher.get(try #require(older(pupilPage)))
            #expect(cards(pupilRest) == 10 && older(pupilRest) == nil)
            let csv = try await teacher.get("/gallery/classes/\(klass.id)/grades.csv")
            #expect(csv.text.contains("Mia;Bild 0;ja;1"))

            _ = try await api.push(sketches.prefix(61).map { Changes.sketchChange($0, .delete(at: 2)) }, token: mia.token)
            let deleted = try await teacher.get("/gallery/deleted")
            #expect(cards(deleted) == 60 && deleted.text.contains("Ältere Bilder"))
            let deletedRest = try await teacher.get(try #require(older(deleted)))
            #expect(cards(deletedRest) == 1 && older(deletedRest) == nil)
        }
    }

    /// Frau Berg finds Mia's deleted sketch on the "Deleted" page, with its
    /// picture, and brings it back with one button; Herr Kurz sees nothing
    /// of it and cannot restore it by its address.
    @Test(arguments: Backend.allCases)
    func aTeacherBringsBackADeletedSketchFromTheDeletedPage(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            _ = try await api.teacher("Herr Kurz")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch, name: "Zoo"), Changes.stroke(sketch),
                                    Changes.sketchChange(sketch, .delete(at: 2))], token: mia.token)
            let browser = Browser(api.client, language: "de")
            try await signInTeacher(browser)
            let home = try await browser.get("/gallery")
            #expect(home.text.contains(#"href="/gallery/deleted""#))
            let deleted = try await browser.get("/gallery/deleted")
            #expect(deleted.text.contains("Zoo") && deleted.text.contains("Wiederherstellen"), "\(deleted.text)")
            #expect(try await browser.get("/gallery/deleted/\(sketch.key)/thumbnail.png").status == .ok)

            let kurz = Browser(api.client, language: "de")
            let form = try await kurz.get("/gallery/signin")
            _ = try await kurz.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Herr Kurz"),
                                                       ("password", "correct horse")])
            #expect(try await kurz.get("/gallery/deleted").text.contains("In den letzten 30 Tagen wurde nichts gelöscht."))
            #expect(try await kurz.get("/gallery/deleted/\(sketch.key)/thumbnail.png").status == .notFound)
            let kurzToken = try #require(try await kurz.get("/gallery/deleted").formToken)
            #expect(try await kurz.post("/gallery/deleted/\(sketch.key)/restore", [("form", kurzToken)]).status == .forbidden)
            // A form without the page's token restores nothing.
            #expect(try await browser.post("/gallery/deleted/\(sketch.key)/restore", [("form", "x")]).status == .forbidden)
            #expect(try await api.call(.get, "/sketches", token: mia.token).array.isEmpty)

            let restored = try await browser.post("/gallery/deleted/\(sketch.key)/restore",
                                                  [("form", try #require(deleted.formToken))])
            #expect(restored.status == .seeOther && restored.location == "/gallery/deleted")
            #expect(try await api.call(.get, "/sketches", token: mia.token).array.map { $0["name"] as? String } == ["Zoo"])
            #expect(try await browser.get("/gallery/deleted").text.contains("In den letzten 30 Tagen wurde nichts gelöscht."))
            // Mia's laptop hears of it like of any change.
            let pulled = try await api.pullAll(token: mia.token)
            #expect((pulled.last?["payload"] as? String)?.contains("restore") == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func theAdminAddsTeachersAndEveryTeacherChangesTheirOwnPasswordOnTheWeb(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (kurzID, _) = try await api.teacher("Herr Kurz")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let browser = Browser(api.client, language: "de")
            try await signInTeacher(browser)
            #expect(try await browser.get("/gallery").text.contains(#"href="/gallery/account""#))
            let page = try await browser.get("/gallery/account")
            #expect(page.text.contains("Lehrkraft anlegen") && page.text.contains("Herr Kurz") && page.text.contains("Mein Passwort ändern"))
            let token = try #require(page.formToken)

            let added = try await browser.post("/gallery/teachers", [("form", token), ("name", "Frau Neu"), ("password", "tafel und kreide")])
            #expect(added.status == .ok && added.text.contains("Die Lehrkraft kann sich jetzt anmelden"))
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Neu", "password": "tafel und kreide"]).status == .created)
            #expect(try await browser.post("/gallery/teachers", [("form", token), ("name", "frau neu"), ("password", "tafel und kreide")])
                .status == .conflict)
            #expect(try await browser.post("/gallery/teachers", [("form", token), ("name", "Herr Kurz2"), ("password", "kurz")])
                .status == .badRequest)
            // Another site's form makes nobody.
            #expect(try await browser.post("/gallery/teachers", [("form", "x"), ("name", "Herr Fremd"), ("password", "tafel und kreide")])
                .status == .forbidden)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Fremd", "password": "tafel und kreide"]).status == .unauthorized)

            let reset = try await browser.post("/gallery/teachers/\(kurzID)/password", [("form", token), ("password", "neues passwort")])
            #expect(reset.status == .ok && reset.text.contains("Das neue Passwort ist gesetzt"))

            // Herr Kurz, no admin: only his own password.
            let kurz = Browser(api.client, language: "de")
            let form = try await kurz.get("/gallery/signin")
            _ = try await kurz.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Herr Kurz"), ("password", "neues passwort")])
            let own = try await kurz.get("/gallery/account")
            #expect(own.status == .ok && own.text.contains("Mein Passwort ändern") && !own.text.contains("Lehrkraft anlegen"))
            let kurzToken = try #require(own.formToken)
            #expect(try await kurz.post("/gallery/teachers", [("form", kurzToken), ("name", "Herr Heimlich"), ("password", "tafel und kreide")])
                .status == .forbidden)
            let wrong = try await kurz.post("/gallery/account/password", [("form", kurzToken), ("current", "falsch geraten"),
                                                                         ("new", "mein eigenes"), ("again", "mein eigenes")])
            #expect(wrong.status == .forbidden && wrong.text.contains("Das ist nicht Ihr jetziges Passwort."))
            let differ = try await kurz.post("/gallery/account/password", [("form", kurzToken), ("current", "neues passwort"),
                                                                          ("new", "mein eigenes"), ("again", "mein anderes")])
            #expect(differ.status == .badRequest && differ.text.contains("nicht gleich"))
            let changed = try await kurz.post("/gallery/account/password", [("form", kurzToken), ("current", "neues passwort"),
                                                                           ("new", "mein eigenes"), ("again", "mein eigenes")])
            #expect(changed.status == .ok && changed.text.contains("Ihr Passwort ist geändert"))
            #expect(try await kurz.get("/gallery/account").status == .ok, "the browser that changed it stays signed in")
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Kurz", "password": "mein eigenes"]).status == .created)

            // A pupil has no account page.
            let pupil = Browser(api.client, language: "de")
            try await signInPupil(pupil, klass, pupilID: klass.pupils["Mia"]!.id)
            #expect(try await pupil.get("/gallery/account").status == .forbidden)
        }
    }

    /// An edit made offline on one laptop and pushed after a newer edit
    /// from another does not bring the old grade back.
    @Test(arguments: Backend.allCases)
    func theLatestEditOfAGradeIsTheOneShownWhateverOrderItArrived(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch, name: "Haus"), Changes.stroke(sketch, author: "Mia")], token: mia.token)
            var grade = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(mia.id),
                                    pupilName: "Mia", grade: 1, comment: "neu", at: 1_790_000_200_000)
            #expect(try await api.push([Changes.grade(grade)], token: teacher.token).rejected.isEmpty)
            grade.grade = 4; grade.comment = "alt"; grade.at = 1_790_000_100_000
            #expect(try await api.push([Changes.grade(grade)], token: teacher.token).rejected.isEmpty)

            let browser = Browser(api.client, language: "de")
            try await signInTeacher(browser)
            let lines = try await browser.get("/gallery/classes/\(klass.id)/grades.csv").text.components(separatedBy: "\r\n")
            #expect(lines.filter { $0.hasPrefix("Mia;") }.count == 1)
            #expect(lines.contains { $0.hasPrefix("Mia;Haus;nein;1;neu;") }, "\(lines)")
            // The older edit is kept in the log: history, not lost.
            #expect(try await api.pullAll(token: teacher.token).filter { $0["entity"] as? String == "grade" }.count == 2)

            // Two laptops' edits of one millisecond: the server keeps the
            // one every device keeps (`GradeRecord.supersedes`), whichever
            // arrived first.
            for (pupil, firstArrives) in [("Mia", true), ("Ole", false)] {
                let id = klass.pupils[pupil]!.id.lowercased()
                let one = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(id),
                                      pupilName: pupil, grade: 2, comment: "eins", at: 1_790_000_300_000)
                var other = one
                other.grade = 3; other.comment = "zwei"
                let kept = one.supersedes(other) ? one : other
                for edit in firstArrives ? [one, other] : [other, one] {
                    #expect(try await api.push([Changes.grade(edit)], token: teacher.token).rejected.isEmpty)
                }
                let csv = try await browser.get("/gallery/classes/\(klass.id)/grades.csv").text
                #expect(csv.contains("\(pupil);Haus;nein;\(kept.grade!);\(kept.comment);"), "\(csv)")
            }
            // The teacher sees what Mia's grade was before, newest first.
            let page = try await browser.get("/gallery/classes/\(klass.id)/pupils/\(mia.id)").text
            let before = try #require(page.range(of: "<summary>Vorher</summary>"), "\(page)")
            let history = page[before.upperBound...]
            let newer = try #require(history.range(of: "<q>neu</q>")), older = try #require(history.range(of: "<q>alt</q>"))
            #expect(newer.lowerBound < older.lowerBound)
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeacherSeesAPupilsGameWeekByWeekAndTakesTheClassAsSpreadsheets(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!
            // Two rounds on a Tuesday, one the next Monday; a laptop's nonsense
            // (a round longer than a day, a number beyond any integer) is refused.
            let tuesday = Date(timeIntervalSince1970: 1_789_000_000)  // Tue 9 Sep 2026
            let pushed = try await api.push([
                round("Mia", word: "Baum", finished: true, milliseconds: 30_000, wrong: 2, playedAt: tuesday),
                round("Mia", word: "Haus", finished: true, milliseconds: 50_000, playedAt: tuesday.addingTimeInterval(3600)),
                round("Mia", word: "=SUM(A1)", finished: false, milliseconds: 90_000, wrong: 1,
                      playedAt: tuesday.addingTimeInterval(6 * 86_400)),
                round("Mia", word: "Auto", finished: true, milliseconds: 9_223_372_036_854_775_807, playedAt: tuesday),
                round("Mia", word: "Auto", finished: true, milliseconds: 1e300, playedAt: tuesday),
            ], token: mia.token)
            #expect(pushed.accepted.count == 3 && pushed.rejected.count == 2)
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch, name: "Haus"), Changes.stroke(sketch, author: "Mia")], token: mia.token)
            let grade = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(mia.id),
                                    pupilName: "Mia", grade: 2, comment: "=HYPERLINK(\"x\"), \"schön\"", at: 1_790_000_000_000)
            #expect(try await api.push([Changes.grade(grade)], token: teacher.token)
                .accepted.count == 1)

            let browser = Browser(api.client, language: "de")
            try await signInTeacher(browser)
            let classPage = try await browser.get("/gallery/classes/\(klass.id)")
            #expect(classPage.text.contains("href=\"/gallery/classes/\(klass.id)/pupils/\(mia.id)\""))
            #expect(classPage.text.contains("<th scope=\"row\">Runden</th><td>3</td>"), "the nonsense rounds are not counted")

            let page = try await browser.get("/gallery/classes/\(klass.id)/pupils/\(mia.id)")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("Woche für Woche"))
            // The week of Monday 7 September: 2 rounds, 2 words, 40 s a word;
            // the week of 14 September: 1 round, none finished.
            #expect(text.contains("<td>07.09.2026</td><td>2</td><td>2</td><td><meter min=\"0\" max=\"2\" value=\"2\">"))
            #expect(text.contains("<td>40</td><td>2</td></tr>"))
            #expect(text.contains("<td>14.09.2026</td><td>1</td><td>0</td>") && text.contains("<td>–</td><td>1</td></tr>"))
            #expect(try await browser.get("/gallery/classes/\(klass.id)/pupils/\(UUID())").status == .notFound)
            // Everything of hers in one zip, from a button on her page.
            let exportPath = "/gallery/classes/\(klass.id)/pupils/\(mia.id)/export.zip"
            #expect(text.contains("href=\"\(exportPath)\"") && text.contains("Alle Daten dieses Kindes (ZIP)"))
            let zip = try await browser.get(exportPath)
            #expect(zip.status == .ok && zip.headers[.contentType] == "application/zip")
            #expect(zip.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(Array(zip.body.prefix(4)) == [0x50, 0x4B, 0x03, 0x04], "a zip file")
            #expect(try await Browser(api.client).get(exportPath).status != .ok, "nobody else's")

            let grades = try await browser.get("/gallery/classes/\(klass.id)/grades.csv")
            #expect(grades.status == .ok && grades.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(grades.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            // In German as a German LibreOffice reads it: ";" between
            // cells, decimal commas, German titles and words.
            let gradeLines = grades.text.components(separatedBy: "\r\n")
            #expect(gradeLines[0] == "Kind;Arbeit;Team;Note;Kommentar;benotet am")
            #expect(gradeLines[1].hasPrefix("Mia;Haus;nein;2;\"'=HYPERLINK(\"\"x\"\"), \"\"schön\"\"\";"),
                    "a formula is made text and quotes doubled: \(gradeLines[1])")
            let games = try await browser.get("/gallery/classes/\(klass.id)/games.csv").text
            let gameLines = games.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(gameLines.count == 4, "a header and three rounds: \(gameLines)")
            #expect(gameLines.contains { $0.hasPrefix("Mia;") && $0.contains(";Baum;ja;30,0;3;2;2") })
            #expect(gameLines.contains { $0.contains(";'=SUM(A1);nein;90,0;") })
            for (text, width) in [(grades.text, 6), (games, 8)] {
                let rows = CSVRecords.parse(text, separator: ";")
                #expect(rows.allSatisfy { $0.fields.count == width }, "every row as wide as the titles: \(rows.map(\.fields))")
            }
            // In English as before, for the scripts that read it.
            let english = Browser(api.client, language: "en")
            try await signInTeacher(english)
            let englishGames = try await english.get("/gallery/classes/\(klass.id)/games.csv").text
            #expect(englishGames.hasPrefix("pupil,played_at,word,finished,seconds,letters_sent,letters_received,wrong_placements\r\n"))
            #expect(englishGames.contains(",Baum,yes,30.0,3,2,2"))
            #expect(CSVRecords.parse(englishGames).allSatisfy { $0.fields.count == 8 })

            // Not for pupils, nor for another class's teacher.
            let pupil = Browser(api.client)
            try await signInPupil(pupil, klass, pupilID: mia.id)
            for path in ["/gallery/classes/\(klass.id)/pupils/\(mia.id)", "/gallery/classes/\(klass.id)/grades.csv",
                         "/gallery/classes/\(klass.id)/games.csv"] {
                #expect(try await pupil.get(path).status == .forbidden, "\(path)")
            }
            _ = try await api.teacher("Herr Klein")
            let other = Browser(api.client)
            let form = try await other.get("/gallery/signin")
            _ = try await other.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Herr Klein"),
                                                         ("password", "correct horse")])
            let foreign = try await other.get("/gallery/classes/\(klass.id)/grades.csv")
            #expect(foreign.status == .forbidden || foreign.status == .notFound)
            #expect(!foreign.text.contains("Mia"))
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilsOwnPageShowsTheirPictureClassAndGame(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!, ole = klass.pupils["Ole"]!
            let day = Date(timeIntervalSince1970: 1_789_000_000)
            _ = try await api.push([round("Mia", word: "Baum", finished: true, milliseconds: 12_000, playedAt: day)],
                                   token: mia.token)
            _ = try await api.push([round("Ole", word: "Boot", finished: true, milliseconds: 99_000, playedAt: day)],
                                   token: ole.token)
            let avatar = Data(try SessionSignRenderer.picturePNG(.sun, size: 64))
            let profile = ProfileRecord(name: "Mia", avatarPNG: avatar, at: 1_790_000_000_000)
            _ = try await api.push([Changes.record("profile", mia.id.lowercased(), profile)], token: mia.token)

            let browser = Browser(api.client, language: "en")
            try await signInPupil(browser, klass, pupilID: mia.id)
            #expect(try await browser.get("/gallery").text.contains("href=\"/gallery/me\""))
            let page = try await browser.get("/gallery/me")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("My page") && text.contains("<strong>Mia</strong>"))
            #expect(text.contains("/gallery/people/\(mia.id)/picture.png"))
            #expect(text.contains("<th scope=\"row\">Class</th><td>2b</td>"))
            #expect(text.contains("<td>12</td>") && !text.contains("<td>99</td>"), "her rounds, not Ole's")

            // A teacher's home is their classes.
            let teacherBrowser = Browser(api.client)
            try await signInTeacher(teacherBrowser)
            let redirected = try await teacherBrowser.get("/gallery/me")
            #expect(redirected.status == .seeOther && redirected.location == "/gallery")
        }
    }

    /// A pupil reads on their page what the teacher said about their work:
    /// their own grade as stars and the teacher's words, their team's where
    /// they have none of their own, and never a classmate's.
    @Test(arguments: Backend.allCases)
    func aPupilsPageShowsTheirGradesAndTheTeachersWords(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let mia = klass.pupils["Mia"]!, ole = klass.pupils["Ole"]!
            let house = UUID(), boat = UUID(), olesOwn = UUID()
            _ = try await api.push([Changes.create(house, name: "Haus"), Changes.stroke(house, author: "Mia"),
                                    Changes.create(boat, name: "Boot"), Changes.stroke(boat, author: "Mia")], token: mia.token)
            _ = try await api.push([Changes.create(olesOwn, name: "Oles Turm"), Changes.stroke(olesOwn, author: "Ole")],
                                   token: ole.token)
            let key = { (id: UUID) in id.uuidString.lowercased() }
            let grades = [
                GradeRecord(target: .sketch, targetId: GradedWorkID(house), pupilId: AccountID(mia.id), pupilName: "Mia",
                            grade: 2, comment: "Ein <schönes> Haus!", at: 1_790_000_000_000),
                GradeRecord(target: .sketch, targetId: GradedWorkID(house), grade: 4, comment: "Team: aufräumen", at: 1_790_000_000_001),
                GradeRecord(target: .sketch, targetId: GradedWorkID(boat), grade: 1, comment: "Tolles Boot, ihr zwei", at: 1_790_000_000_002),
                GradeRecord(target: .sketch, targetId: GradedWorkID(olesOwn), pupilId: AccountID(ole.id), pupilName: "Ole",
                            grade: 5, comment: "Nur für Ole", at: 1_790_000_000_003),
            ]
            #expect(try await api.push(grades.map(Changes.grade), token: teacher.token).accepted.count == 4)

            let browser = Browser(api.client, language: "en")
            try await signInPupil(browser, klass, pupilID: mia.id)
            let text = try await browser.get("/gallery/me").text
            #expect(text.contains("What your teacher says"))
            #expect(text.contains("Ein &lt;schönes&gt; Haus!") && text.contains("★★★★<span class=\"unstarred\">☆</span>"))
            #expect(!text.contains("Team: aufräumen"), "her own grade, not the team's, on the house")
            #expect(text.contains("Tolles Boot, ihr zwei") && text.contains("★★★★★"))
            #expect(!text.contains("Nur für Ole") && !text.contains("Oles Turm"), "never a classmate's")
            #expect(text.contains("href=\"/gallery/sketches/\(key(house))\""))
            // Newest first: the boat's team grade before the house.
            let boatAt = text.range(of: "Tolles Boot")!.lowerBound, houseAt = text.range(of: "schönes")!.lowerBound
            #expect(boatAt < houseAt)

            let oles = Browser(api.client, language: "de")
            try await signInPupil(oles, klass, pupilID: ole.id)
            let his = try await oles.get("/gallery/me").text
            #expect(his.contains("Was deine Lehrerin oder dein Lehrer sagt") && his.contains("Nur für Ole"))
            #expect(!his.contains("Haus") && !his.contains("Boot"))
        }
    }

    @Test func weeksStartOnMondayAndKeepTheirRounds() {
        let monday = Date(timeIntervalSince1970: 1_788_739_200)  // Mon 7 Sep 2026 00:00 UTC
        let rounds = [
            GameProgress.Round(playedAt: monday.addingTimeInterval(-1), finished: true, milliseconds: 10_000, wrongPlacements: 0),
            GameProgress.Round(playedAt: monday, finished: true, milliseconds: 20_000, wrongPlacements: 1),
            GameProgress.Round(playedAt: monday.addingTimeInterval(7 * 86_400 - 1), finished: true, milliseconds: 40_000,
                               wrongPlacements: 2),
            GameProgress.Round(playedAt: monday.addingTimeInterval(3 * 86_400), finished: false, milliseconds: 90_000,
                               wrongPlacements: 0),
        ]
        let progress = GameProgress(rounds)
        #expect(progress.weeks.map(\.start) == [monday.addingTimeInterval(-7 * 86_400), monday])
        #expect(progress.weeks.map(\.rounds) == [1, 3])
        #expect(progress.weeks.map(\.finished) == [1, 2])
        #expect(progress.weeks.map(\.secondsPerWord) == [10, 30], "unfinished rounds do not count for speed")
        #expect(progress.weeks.map(\.wrongPlacements) == [0, 3])
        #expect(progress.mostFinished == 2)
        let many = (0..<200).map {
            GameProgress.Round(playedAt: monday.addingTimeInterval(Double($0) * 7 * 86_400), finished: false,
                               milliseconds: 0, wrongPlacements: 0)
        }
        let capped = GameProgress(many)
        #expect(capped.weeks.count == GameProgress.maxWeeks && capped.weeks.last?.start == many.last?.playedAt,
                "the latest weeks are kept")
        #expect(GameProgress([]).weeks.isEmpty && GameProgress([]).mostFinished == 0)
    }

    @Test(arguments: Backend.allCases)
    func wrongPicturesOnThePagesAreThrottledAsTheAPIsAre(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia"])
            let mia = klass.pupils["Mia"]!.id
            let browser = Browser(api.client)
            _ = try await giveCode(klass.code, browser)
            let token = try #require(try await browser.get("/gallery/pupil/\(klass.id)/\(mia)").formToken)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 {
                statuses.append(try await browser.post("/gallery/pupil/\(klass.id)/\(mia)",
                                                       [("form", token), ("chosen", "8.7"), ("pick", "6")]).status)
            }
            #expect(statuses == Array(repeating: .unauthorized, count: 5) + [.tooManyRequests])
            // Now even the right pictures wait, on the pages as in the API.
            let right = try await browser.post("/gallery/pupil/\(klass.id)/\(mia)", [("form", token), ("chosen", "1.2"), ("pick", "3")])
            #expect(right.status == .tooManyRequests && right.text.contains("Too many wrong tries"))
            // The browser is one device, whether it asks through the pages
            // or the API; Mia's laptop (where she signed in before) is not
            // held up by its tries.
            let browsersMark = try #require(browser.cookies[WebCookies.device])
            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia, "pictures": [1, 2, 3]],
                                       headers: TestAPI.device(browsersMark)).status == .tooManyRequests)
            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia, "pictures": [1, 2, 3]]).status == .created)
        }
    }

    /// Choosing a language sends the visitor back to a page of this
    /// gallery, never to another host.
    @Test(arguments: Backend.allCases)
    func theLanguageSwitchRedirectsOnlyToThisGallery(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let browser = Browser(api.client)
            for (asked, sent) in [("//gallery", "/gallery"), ("/gallery//signin", "/gallery/signin"),
                                  ("/gallery/pupil", "/gallery/pupil")] {
                let page = try await browser.get(asked + "?lang=en")
                #expect(page.status == .seeOther && page.location == sent, "\(asked) → \(page.location ?? "none")")
            }
        }
        #expect(WebGallery.localPath("//evil.example/gallery") == "/gallery")
        #expect(WebGallery.localPath("/gallery/\\evil.example") == "/gallery")
        #expect(WebGallery.localPath("/gallery/%5C%5Cevil.example") == "/gallery")
        #expect(WebGallery.localPath("/gallery/../../evil") == "/gallery")
        #expect(WebGallery.localPath("/gallery/classes/2b") == "/gallery/classes/2b")
    }

    @Test func theBrowsersLanguageIsReadWithItsWeights() {
        #expect(WebLanguage.pick(chosen: nil, acceptLanguage: "fr-FR, de;q=0.7, en;q=0.8") == .en)
        #expect(WebLanguage.pick(chosen: nil, acceptLanguage: "de-AT;q=0.9,en;q=0.2") == .de)
        #expect(WebLanguage.pick(chosen: "de", acceptLanguage: "en") == .de)
        #expect(WebLanguage.pick(chosen: "xx", acceptLanguage: nil) == .en)
        #expect(WebLanguage.pick(chosen: nil, acceptLanguage: "de;q=0, en;q=nan, " + String(repeating: "x,", count: 5000)) == .en)
    }

    @Test func formsAndCookiesAreReadWithinTheirCaps() {
        let form = WebForm(Array("a=1&a=2&name=Mia+M%C3%BCller&bad=%ZZ&&=x".utf8))
        #expect(form["a"] == "1" && form["name"] == "Mia Müller" && form["bad"] == "")
        #expect(WebForm(Array(String(repeating: "k=v&", count: 10_000).utf8)).fields.count == 1)
        #expect(WebCookies.parse("a=1; b = 2 ;a=3; broken; c=") == ["a": "1", "b": "2"])
        #expect(WebGallery.pictureIndices("4.0") == [4, 0] && WebGallery.pictureIndices("9") == []
                && WebGallery.pictureIndices("1.2.3") == [] && WebGallery.pictureIndices("") == [])
    }
}
