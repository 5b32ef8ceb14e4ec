import Foundation
import LearnModel
import Testing
@testable import SchoolServer

/// The end of a school year: the admin decides how long an archived class
/// is kept, and the server erases it after that, with its pupils.
@Suite struct RetentionTests {
    @Test(arguments: Backend.allCases)
    func anArchivedClassIsErasedWithItsPupilsOnceTheSchoolsPeriodHasPassed(_ backend: Backend) async throws {
        var server = TestServer(backend)
        server.configuration.retentionSweep = .milliseconds(50)
        try await server.run { api in
            var (_, berg) = try await api.teacher("Frau Berg")
            var (_, kurz) = try await api.teacher("Herr Kurz")
            // Months pass in this test: a teacher signs in again after them.
            func later(days: Int64) async throws {
                api.clock.advance(seconds: days * 86_400)
                for name in ["Frau Berg", "Herr Kurz"] {
                    let token = try await api.call(.post, "/sessions", json: ["name": name, "password": "correct horse"])
                        .object["token"] as? String ?? ""
                    if name == "Frau Berg" { berg = token } else { kurz = token }
                }
            }
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let threeA = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            let sketch = UUID()
            #expect(try await api.push([Changes.create(sketch, name: "Haus"), Changes.stroke(sketch)], token: mia.token)
                .rejected.isEmpty)
            // A team sketch each of them hosted, both drawn in by both: they
            // go too, whichever of the two is erased first.
            let (bens, mias) = try await api.teamSketchesHostedByEach(mia: mia, ben: ben)
            // And a task their teacher set them.
            #expect(try await api.push([AssignmentRulesTests.assignment(UUID(), of: twoB.id)], token: berg).rejected.isEmpty)

            // Nothing is erased until the admin says so; only she may, 30 days at least.
            #expect(try await api.call(.get, "/school/retention", token: kurz).object["days"] == nil)
            #expect(try await api.call(.get, "/school/retention", token: mia.token).status == .forbidden)
            #expect(try await api.call(.put, "/school/retention", token: kurz, json: ["days": 365]).status == .forbidden)
            #expect(try await api.call(.put, "/school/retention", token: berg, json: ["days": 7]).status == .badRequest)
            let set = try await api.call(.put, "/school/retention", token: berg, json: ["days": 365])
            #expect(set.status == .ok && set.object["days"] as? Int == 365)
            #expect(try await api.call(.get, "/school/retention", token: kurz).object["days"] as? Int == 365)

            // The year ends: 2b is archived; Kurz's 3a goes on.
            #expect(try await api.call(.put, "/classes/\(twoB.id)/archived", token: berg, json: ["archived": true])
                .status == .ok)
            func classes(_ token: String) async throws -> [String] {
                try await api.call(.get, "/classes?archived=true", token: token).array.compactMap { $0["name"] as? String }
            }
            try await later(days: 364)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await classes(berg) == ["2b"], "kept within the year")
            #expect(try await api.call(.get, "/pupils/\(mia.id)", token: berg).status == .ok)

            try await later(days: 2)
            try await waitUntil { try await classes(berg).isEmpty }
            #expect(try await api.call(.get, "/pupils/\(mia.id)", token: berg).status == .notFound)
            for table in ["account WHERE classId = ?", "schoolClass WHERE id = ?", "change WHERE classId = ? AND entity <> 'erasure'",
                          "classDevice WHERE classId = ?", "assignment WHERE classId = ?"] {
                let left = try await api.database.query("SELECT COUNT(*) AS n FROM \(table)", [.text(twoB.id)]).first?.int("n")
                #expect(left == 0, "\(table)")
            }
            for (id, what) in [(sketch, "Mia's sketch"), (bens, "Ben's team sketch"), (mias, "Mia's team sketch")] {
                #expect(try await api.database.query("SELECT COUNT(*) AS n FROM sketch WHERE id = ?", [.text(id.key)])
                    .first?.int("n") == 0, "\(what) went with them")
                #expect(try await api.database.query("SELECT COUNT(*) AS n FROM change WHERE sketchId = ?", [.text(id.key)])
                    .first?.int("n") == 0, "\(what)'s lines went with them")
            }
            // Berg's laptops are told to forget both pupils.
            let told = try await api.pullAll(token: berg).filter { $0["entity"] as? String == "erasure" }
            #expect(told.count == 2)
            #expect(!told.contains { ($0["payload"] as? String ?? "").contains("Mia") }, "ids only, no names")
            #expect(try await classes(kurz) == ["3a"])
            #expect(try await api.call(.get, "/pupils/\(threeA.pupils["Eve"]!.id)", token: kurz).status == .ok)

            // Without a period, an archived class stays however long.
            #expect(try await api.call(.put, "/school/retention", token: berg, json: ["days": NSNull()]).status == .ok)
            #expect(try await api.call(.get, "/school/retention", token: kurz).object["days"] == nil)
            #expect(try await api.call(.put, "/school/retention", token: berg, json: [String: Any]()).status == .ok)
            #expect(try await api.call(.put, "/classes/\(threeA.id)/archived", token: kurz, json: ["archived": true])
                .status == .ok)
            try await later(days: 4000)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await classes(kurz) == ["3a"])
        }
    }

    private func waitUntil(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<200 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("not so after 10 s")
    }
}
