import Foundation
import LearnModel
import Testing
@testable import SchoolServer

/// A class's tasks in the web gallery: the teacher sees who has done each,
/// who not yet, the answers with the wrong ones, the questions most got
/// wrong and a spreadsheet of it; another teacher and a pupil see none of it.
@Suite struct WebAssignmentTests {
    func signedIn(_ api: TestAPI, _ name: String) async throws -> WebGalleryTests.Browser {
        let browser = WebGalleryTests.Browser(api.client, language: "de")
        let form = try await browser.get("/gallery/signin")
        _ = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", name),
                                                       ("password", "correct horse")])
        return browser
    }

    @Test(arguments: Backend.allCases)
    func theTeacherSeesWhoHasDoneATaskAndWhatWasWrong(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            _ = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole", "Eve"])
            let mia = twoB.pupils["Mia"]!, ole = twoB.pupils["Ole"]!
            let sums = UUID(), house = UUID()
            #expect(try await api.push([AssignmentRulesTests.assignment(sums, of: twoB.id),
                                        AssignmentRulesTests.assignment(house, of: twoB.id, task: .draw(
                                            prompt: "Dein <Haus>", groupSize: 1, guides: .none, timeLimitMinutes: 0))],
                                       token: berg).rejected.isEmpty)
            // Mia got 7 + 2 wrong at first (she pressed 8); Ole drew his house.
            #expect(try await api.push([AssignmentRulesTests.answer(sums, by: mia.id)], token: mia.token).rejected.isEmpty)
            let olesHouse = UUID()
            #expect(try await api.push([Changes.create(olesHouse, name: "Haus"), Changes.stroke(olesHouse, author: "Ole"),
                                        AssignmentRulesTests.answer(house, by: ole.id, work: .sketch(id: olesHouse))],
                                       token: ole.token).rejected.isEmpty)

            let browser = try await signedIn(api, "Frau Berg")
            let classPage = try await browser.get("/gallery/classes/\(twoB.id)")
            #expect(classPage.text.contains("Rechnen: Plus bis 10") && classPage.text.contains("Malen: Dein &lt;Haus&gt;"),
                    "listed, the prompt escaped")
            #expect(classPage.text.contains("/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)"))
            let page = try await browser.get("/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)")
            #expect(page.status == .ok)
            #expect(page.text.contains("Erledigt von <strong>1</strong> / 3") && page.text.contains("bis 2026-12-24"))
            #expect(page.text.contains("<th scope=\"row\">Mia</th><td>✓</td><td>1 / 2</td>"), "\(page.text)")
            #expect(page.text.contains("<th scope=\"row\">Ole</th><td>noch nicht</td>"))
            #expect(page.text.contains("Am häufigsten falsch") && page.text.contains("<strong>7 + 2 = ?</strong> 1 / 1"))
            #expect(!page.text.contains("<strong>3 + 4 = ?</strong>"), "nobody got it wrong")
            #expect(page.text.contains("<span class=\"wrong\">7 + 2 = ? <del>8</del></span>"))
            let drawn = try await browser.get("/gallery/classes/\(twoB.id)/assignments/\(house.lowercasedText)")
            #expect(drawn.text.contains("<a href=\"/gallery/sketches/\(olesHouse.lowercasedText)\">Bild öffnen</a>"))
            #expect(!drawn.text.contains("Am häufigsten falsch") && drawn.text.contains("Dein &lt;Haus&gt;"))

            let csv = try await browser.get("/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)/answers.csv")
            #expect(csv.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let rows = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.count == 4 && rows[0].hasPrefix("Kind;erledigt;gleich richtig"), "\(rows)")
            #expect(rows.contains { $0.hasPrefix("Mia;ja;1;2;8,0;7 + 2 = ? 8;") }, "\(rows)")
            #expect(rows.contains { $0.hasPrefix("Ole;nein;;;") })

            // Herr Kurz and a pupil see none of it; nor does a made-up task.
            let kurz = try await signedIn(api, "Herr Kurz")
            for path in ["/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)",
                         "/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)/answers.csv"] {
                #expect(try await kurz.get(path).status == .forbidden, "\(path)")
            }
            var pupil = WebGalleryTests.Browser(api.client, language: "de")
            pupil.cookies[WebCookies.session] = mia.token
            #expect(try await pupil.get("/gallery/classes/\(twoB.id)/assignments/\(sums.lowercasedText)").status == .forbidden)
            #expect(try await browser.get("/gallery/classes/\(twoB.id)/assignments/\(UUID().lowercasedText)").status
                    == .notFound)
            #expect(try await browser.get("/gallery/classes/\(twoB.id)/assignments/not-an-id").status == .notFound)
        }
    }
}
