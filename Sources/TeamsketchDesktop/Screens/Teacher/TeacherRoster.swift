import Foundation
import SchoolClient
import TeamsketchCore

/// The pupils of the signed-in teacher's classes (archived ones too: their
/// work is still graded), for grading: who a name on a sketch or a game
/// result is. Asked of the server and kept as `RosterFreshness` says: a
/// change in the teacher's own classes forgets it, a name it does not
/// know asks again. Without a teacher signed in, or when the server has
/// never answered, nobody (grades then go under the pupils' names; a later
/// change of mind moves them to the account, see `GradedPupils.changes`).
@MainActor
enum TeacherRoster {
    /// The sign-in the roster belongs to; another one starts afresh.
    private static var token: String?
    private static var freshness = RosterFreshness()
    private static var known = GradedPupils()
    private static var asking: Task<GradedPupils, Never>?
    /// Counts `forget`s, so an answer asked for before one is not kept.
    private static var generation = 0

    static func pupils(_ app: TeamsketchApp) async -> GradedPupils {
        guard let task = lookUp(app, unknownName: false) else { return GradedPupils() }
        return await task.value
    }

    /// The roster, but nothing waits for the server longer than `seconds`:
    /// saving a grade and exporting go on without it. `grading`: the name
    /// of the pupil being graded; one the roster does not know asks again.
    static func pupils(_ app: TeamsketchApp, waitingAtMost seconds: Double, grading name: String? = nil) async -> GradedPupils {
        let unknown = name.map { known.account(named: $0) == nil } ?? false
        guard let task = lookUp(app, unknownName: unknown) else { return GradedPupils() }
        let fallback = known
        return await withTaskGroup(of: GradedPupils?.self) { group in
            group.addTask { await task.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? fallback
        }
    }

    /// The teacher changed a class or its pupils (or may have: the server's
    /// answer was lost).
    static func forget() {
        freshness.forget()
        asking = nil
        generation += 1
    }

    private static func lookUp(_ app: TeamsketchApp, unknownName: Bool) -> Task<GradedPupils, Never>? {
        guard let signIn = app.school.signIn, signIn.isTeacher else { return nil }
        if signIn.token != token {
            token = signIn.token
            known = GradedPupils()
            forget()
        }
        if let asking { return asking }
        let current = known
        guard freshness.mustAsk(now: Date(), unknownName: unknownName) else { return Task { current } }
        let school = app.school, asked = generation
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
            let answer = roster.flatMap { $0 }.map { GradedPupils(roster: $0) }
            // Forgotten meanwhile (a change, or another sign-in): this
            // answer may not have the change.
            guard asked == generation else { return answer ?? current }
            asking = nil
            if let answer {
                known = answer
                freshness.answered(at: Date())
            } else {
                freshness.failed(at: Date())
            }
            return known
        }
        asking = task
        return task
    }

    /// The classes as the roster knows them, by id, for the class menu.
    static func classes(_ pupils: GradedPupils) -> [(id: String, name: String)] {
        var seen = Set<String>()
        return pupils.roster.compactMap { seen.insert($0.classID).inserted ? ($0.classID, $0.className) : nil }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}
