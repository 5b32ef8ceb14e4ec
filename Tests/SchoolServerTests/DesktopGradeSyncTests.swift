import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import Testing
@testable import SchoolServer

/// A pupil's own grades as the teacher's window gives them, through a real
/// server: who a name on the work is comes from the teacher's classes on
/// the server (as the window asks), a pupil of them is graded under their
/// account and gets the grade; a name no class has is graded under its
/// name's id, which the server refuses, so that grade stays on the laptop.
@Suite struct DesktopGradeSyncTests {
    @Test(arguments: Backend.allCases)
    func aPupilsGradesReachThemAndAGuestsStayOnTheLaptop(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let two = try await MiaAndHerTeacher(api)
            defer { Task { await two.client.shutdown() } }
            let (berg, mia, client, miasLaptop, teachersLaptop, a, b) =
                (two.berg, two.mia, two.client, two.miasLaptop, two.teachersLaptop, two.a, two.b)

            // Mia draws with a guest, Ole, who has no account.
            let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try miasLaptop.createSketch(meta)
            try miasLaptop.append(.addStroke(DesktopSyncTests.stroke(x: 100)), to: meta.id)
            _ = try await a.syncOnce()
            _ = try await b.syncOnce()

            // The roster as the teacher's window reads it.
            var roster: [GradedPupils.Pupil] = []
            for schoolClass in try await client.listClasses(token: berg) {
                for pupil in try await client.listPupils(classID: schoolClass.id, token: berg) {
                    roster.append(.init(id: try #require(pupil.id.uuid), name: pupil.name,
                                        classID: schoolClass.id, className: schoolClass.name))
                }
            }
            let pupils = GradedPupils(roster: roster)
            #expect(pupils.id(for: "Mia").uuidString.lowercased() == mia.id.lowercased())

            let changes = pupils.changes(sketch: meta.id, name: "Mia", grade: 1, comment: "Schöne Farben", previous: nil, at: 1)
                + pupils.changes(sketch: meta.id, name: "Ole", grade: 3, comment: "", previous: nil, at: 2)
                + pupils.changes(sketch: nil, name: "Mia", grade: 2, comment: "Schnell", previous: nil, at: 3)
            for change in changes { try teachersLaptop.setGrade(id: change.id, change.record) }
            let round = try await b.syncOnce()
            #expect(round.pushed == 2 && round.refused == 1)
            // Ole's grade is still on the teacher's laptop, in the grade list.
            let kept = try teachersLaptop.allGrades()
            #expect(kept.count == 3)
            #expect(kept.values.contains { $0.pupilName == "Ole" && $0.grade == 3 })

            // Mia's laptop gets both of her grades, with her name.
            _ = try await a.syncOnce()
            let onSketch = try miasLaptop.grades(forTarget: GradedWorkID(meta.id))
            #expect(onSketch.map(\.grade) == [1] && onSketch.first?.pupilName == "Mia")
            let gameTarget = GradeIdentity.wordPostResults(of: try #require(UUID(uuidString: mia.id)))
            #expect(try miasLaptop.grades(forTarget: GradedWorkID(gameTarget)).map(\.comment) == ["Schnell"])
        }
    }
}
