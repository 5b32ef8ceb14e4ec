import Foundation
import HTTPTypes
import Testing
@testable import SchoolServer

/// The sketch list a page at a time: nothing is cut at a count, a page's
/// `Next-Before` leads to the next, and a cursor is checked like any other
/// input.
@Suite struct SketchListTests {
    /// Every page of GET /sketches?`query`, following `Next-Before`; the
    /// sketches in the order listed and how many pages it took.
    private func listAll(_ api: TestAPI, _ query: String, token: String) async throws -> (ids: [String], pages: Int) {
        var ids: [String] = []
        var before: String?
        var pages = 0
        repeat {
            let path = "/sketches?" + ([query] + (before.map { ["before=\($0)"] } ?? [])).filter { !$0.isEmpty }.joined(separator: "&")
            let answer = try await api.call(.get, path, token: token)
            #expect(answer.status == .ok, "\(path): \(answer.status) \(answer.object)")
            ids += answer.array.compactMap { $0["id"] as? String }
            before = Self.next(answer)
            pages += 1
            guard pages < 100 else { throw TestSetupProblem("the pages do not end") }
        } while before != nil
        return (ids, pages)
    }

    static func next(_ answer: TestAPI.Answer) -> String? { answer.headers[HTTPField.Name("Next-Before")!] }

    /// 1,005 sketches, most of them changed last in the same millisecond
    /// (so the id decides their order): the default page holds 1,000 and says
    /// where the other five are; small pages list each sketch once.
    @Test(arguments: Backend.allCases)
    func everySketchIsListedOnceOverPages(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            // Written as a push of their creations would leave them (a
            // push of 500 creations each costs a busy PostgreSQL longer than
            // the test client waits), 500 to a millisecond.
            let sketches = (0..<1005).map { _ in UUID() }
            for start in stride(from: 0, to: sketches.count, by: 500) {
                let part = sketches[start..<min(start + 500, sketches.count)]
                let at = SQLValue.int(api.clock.now)
                let marks = Array(repeating: "(?, 'Bild', 100, 100, 1, ?, ?, 0, ?, 0)", count: part.count).joined(separator: ", ")
                let pairs = Array(repeating: "(?, ?)", count: part.count).joined(separator: ", ")
                try await api.database.transaction([
                    SQLStatement("""
                        INSERT INTO sketch (id, name, width, height, described, createdAt, modifiedAt, opCount, creatorId, team)
                        VALUES \(marks)
                        """, part.flatMap { [.text($0.key), at, at, .text(mia.id)] }),
                    SQLStatement("INSERT INTO sketchAuthor (sketchId, accountId) VALUES \(pairs)",
                                 part.flatMap { [.text($0.key), .text(mia.id)] }),
                ])
                api.clock.advance(seconds: 1)
            }
            let expected = Set(sketches.map(\.key))

            let first = try await api.call(.get, "/sketches", token: mia.token)
            #expect(first.array.count == 1000)
            let cursor = try #require(Self.next(first))
            #expect(cursor == "1790000000000.\(try #require(first.array.last?["id"] as? String))", "the page's last sketch")
            let whole = try await listAll(api, "", token: mia.token)
            #expect(whole.pages == 2 && whole.ids.count == 1005 && Set(whole.ids) == expected)
            // The newest push's sketches come first.
            #expect(Set(whole.ids.prefix(5)) == Set(sketches.suffix(5).map(\.key)))

            let small = try await listAll(api, "limit=97", token: mia.token)
            #expect(small.ids == whole.ids && small.pages == 11)
            // The teacher sees the same, and the same for "drawn by Mia".
            #expect(try await listAll(api, "limit=400", token: berg).ids == whole.ids)
            let mias = try await listAll(api, "limit=400&pupilId=\(mia.id)", token: berg)
            #expect(mias.ids == whole.ids && mias.pages == 3)
        }
    }

    /// A sketch drawn in while someone pages moves to the front: the pages
    /// after neither repeat it nor skip another.
    @Test(arguments: Backend.allCases)
    func aSketchChangedWhilePagingIsNeitherRepeatedNorSkipped(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketches = (0..<6).map { _ in UUID() }
            for sketch in sketches {
                #expect(try await api.push([Changes.create(sketch)], token: mia.token).accepted.count == 1)
                api.clock.advance(seconds: 1)
            }
            let newestFirst = sketches.reversed().map(\.key)
            let page1 = try await api.call(.get, "/sketches?limit=2", token: mia.token)
            #expect(page1.array.compactMap { $0["id"] as? String } == Array(newestFirst.prefix(2)))
            // The oldest gets a stroke before page two is asked for.
            #expect(try await api.push([Changes.stroke(sketches[0])], token: mia.token).accepted.count == 1)
            let rest = try await api.call(.get, "/sketches?limit=10&before=\(try #require(Self.next(page1)))", token: mia.token)
            #expect(rest.array.compactMap { $0["id"] as? String } == Array(newestFirst[2..<5]),
                    "the changed one is not listed again below")
            let again = try await api.call(.get, "/sketches?limit=2", token: mia.token)
            #expect(again.array.first?["id"] as? String == sketches[0].key)
        }
    }

    /// Who may list whose: a pupil filter never widens what an account
    /// sees, and a cursor or limit that is not one is refused.
    @Test(arguments: Backend.allCases)
    func thePupilFilterAndTheCursorAreCheckedLikeAnyInput(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let eve = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"]).pupils["Eve"]!
            let (mia, ole) = (klass.pupils["Mia"]!, klass.pupils["Ole"]!)
            let mias = UUID(), oles = UUID()
            _ = try await api.push([Changes.create(mias)], token: mia.token)
            _ = try await api.push([Changes.create(oles)], token: ole.token)

            func listed(_ path: String, _ token: String) async throws -> [String] {
                try await api.call(.get, path, token: token).array.compactMap { $0["id"] as? String }
            }
            #expect(try await listed("/sketches?pupilId=\(mia.id)", berg) == [mias.key])
            #expect(try await listed("/sketches?pupilId=\(mia.id)", kurz).isEmpty, "another teacher's pupil")
            #expect(try await listed("/sketches?pupilId=\(mia.id)", eve.token).isEmpty, "a stranger")
            #expect(try await listed("/sketches?pupilId=\(mia.id)", ole.token).isEmpty, "a classmate")
            #expect(try await listed("/sketches?pupilId=\(ole.id)", ole.token) == [oles.key])
            #expect(try await api.call(.get, "/sketches?pupilId=\(mia.id)").status == .unauthorized)

            let valid = "1790000000000.\(mias.key)"
            #expect(try await api.call(.get, "/sketches?before=\(valid)", token: mia.token).status == .ok)
            for bad in ["x", "1790000000000", "1790000000000.x", "-1.\(mias.key)", "12345678901234567.\(mias.key)",
                        "99999999999999999999.\(mias.key)", "1.2.\(mias.key)", ".\(mias.key)", String(repeating: "1", count: 65)] {
                let answer = try await api.call(.get, "/sketches?before=\(bad)", token: mia.token)
                #expect(answer.status == .badRequest, "before=\(bad): \(answer.status)")
            }
            for bad in ["0", "1001", "-1", "x"] {
                #expect(try await api.call(.get, "/sketches?limit=\(bad)", token: mia.token).status == .badRequest)
            }
            #expect(try await api.call(.get, "/sketches?pupilId=nobody", token: berg).status == .badRequest)
        }
    }

    @Test func aCursorIsReadOnlyAsTheServerWritesIt() {
        let id = UUID()
        let cursor = SketchListCursor(at: 1_790_000_000_123, id: id)
        #expect(SketchListCursor(text: cursor.text) == cursor)
        #expect(SketchListCursor(text: "0.\(id.key)") == SketchListCursor(at: 0, id: id))
        #expect(SketchListCursor(text: "9999999999999999.\(id.key)")?.at == 9_999_999_999_999_999)
        for bad in ["", ".", "1.", "+1.\(id.key)", " 1.\(id.key)", "1 .\(id.key)", "0x1.\(id.key)", "1e3.\(id.key)",
                    "12345678901234567.\(id.key)", "00000000000000001.\(id.key)", "1.\(id.key).", "1.\(id.key)x"] {
            #expect(SketchListCursor(text: bad) == nil, "\(bad)")
        }
    }
}
