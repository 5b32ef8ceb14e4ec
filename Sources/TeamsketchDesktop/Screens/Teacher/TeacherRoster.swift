import Foundation
import SchoolClient
import TeamsketchCore

/// The pupils of the signed-in teacher's classes (archived ones too: their
/// work is still graded), for grading: who a name on a sketch or a game
/// result is. Asked of the server once per sign-in and
/// kept while the app runs (a pupil added later is known after the next
/// sign-in); without a teacher signed in, or when the server does not
/// answer, nobody (grades then go under the pupils' names; a later change
/// of mind moves them to the account, see `GradedPupils.changes`). A failed
/// answer is asked again after a minute, not at every grade.
@MainActor
enum TeacherRoster {
    private static var cached: (token: String, pupils: Task<GradedPupils, Never>)?
    private static var failed: (token: String, at: Date)?

    static func pupils(_ app: TeamsketchApp) async -> GradedPupils {
        guard let task = lookUp(app) else { return GradedPupils() }
        return await task.value
    }

    /// The roster, but nothing waits for the server longer than `seconds`:
    /// saving a grade and exporting go on without it.
    static func pupils(_ app: TeamsketchApp, waitingAtMost seconds: Double) async -> GradedPupils {
        guard let task = lookUp(app) else { return GradedPupils() }
        return await withTaskGroup(of: GradedPupils?.self) { group in
            group.addTask { await task.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? GradedPupils()
        }
    }

    private static func lookUp(_ app: TeamsketchApp) -> Task<GradedPupils, Never>? {
        guard let signIn = app.school.signIn, signIn.isTeacher else { return nil }
        if let cached, cached.token == signIn.token { return cached.pupils }
        if let failed, failed.token == signIn.token, Date().timeIntervalSince(failed.at) < 60 { return nil }
        let school = app.school, token = signIn.token
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
            guard let roster = roster.flatMap({ $0 }), !roster.isEmpty else {
                // Not kept: asked again after a minute.
                if cached?.token == token { cached = nil }
                failed = (token, Date())
                return GradedPupils()
            }
            return GradedPupils(roster: roster)
        }
        cached = (token, task)
        return task
    }

    /// The classes as the roster knows them, by id, for the class menu.
    static func classes(_ pupils: GradedPupils) -> [(id: String, name: String)] {
        var seen = Set<String>()
        return pupils.roster.compactMap { seen.insert($0.classID).inserted ? ($0.classID, $0.className) : nil }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
