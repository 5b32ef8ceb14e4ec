import Foundation
import SchoolClient
import TeamsketchCore

/// The pupils of the signed-in teacher's classes (archived ones too: their
/// work is still graded), for grading: who a name on a sketch or a game
/// result is. Asked of the server once per sign-in and
/// kept while the app runs (a pupil added later is known after the next
/// sign-in or `forget`); without a teacher signed in, or when the server does
/// not answer, nobody (grades then go under the pupils' names).
@MainActor
enum TeacherRoster {
    private static var cached: (token: String, pupils: Task<GradedPupils, Never>)?

    static func pupils(_ app: TeamsketchApp) async -> GradedPupils {
        guard let signIn = app.school.signIn, signIn.isTeacher else { return GradedPupils() }
        if let cached, cached.token == signIn.token { return await cached.pupils.value }
        let school = app.school
        let task = Task { @MainActor () -> GradedPupils in
            let roster = try? await school.asTeacher { client, token in
                var found: [GradedPupils.Pupil] = []
                for schoolClass in try await client.listClasses(token: token, includingArchived: true) {
                    for pupil in try await client.listPupils(classID: schoolClass.id, token: token) {
                        guard let id = UUID(uuidString: pupil.id) else { continue }
                        found.append(.init(id: id, name: pupil.name, classID: schoolClass.id.lowercased(),
                                           className: schoolClass.name))
                    }
                }
                return found
            }
            return GradedPupils(roster: roster.flatMap { $0 } ?? [])
        }
        cached = (signIn.token, task)
        let pupils = await task.value
        // A failed answer is not kept: the next look asks again.
        if pupils.roster.isEmpty, cached?.token == signIn.token { cached = nil }
        return pupils
    }

    /// The classes as the roster knows them, by id, for the class menu.
    static func classes(_ pupils: GradedPupils) -> [(id: String, name: String)] {
        var seen = Set<String>()
        return pupils.roster.compactMap { seen.insert($0.classID).inserted ? ($0.classID, $0.className) : nil }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
