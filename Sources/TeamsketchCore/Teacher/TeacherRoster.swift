import Foundation
import LearnModel

/// The pupils of the signed-in teacher's classes (archived ones too: their
/// work is still graded), for grading: who a name on a sketch or a game
/// result is. Asked of the server and kept as `RosterFreshness` says: a
/// change in the teacher's own classes forgets it, a name it does not know
/// asks again. Without a teacher signed in, or when the server has never
/// answered, nobody (grades then go under the pupils' names; a later change
/// of mind moves them to the account, see `GradedPupils.changes`).
///
/// One per app run: every grade screen shares what was asked.
@MainActor
public final class TeacherRoster {
    /// How the roster is reached: the signed-in teacher's sign-in (nil for
    /// none, or a pupil), and the question to the server (nil: no answer).
    public struct Source: Sendable {
        public var teacherSignIn: @MainActor @Sendable () -> SchoolToken?
        public var ask: @MainActor @Sendable () async -> [GradedPupils.Pupil]?

        public init(teacherSignIn: @escaping @MainActor @Sendable () -> SchoolToken?,
                    ask: @escaping @MainActor @Sendable () async -> [GradedPupils.Pupil]?) {
            self.teacherSignIn = teacherSignIn
            self.ask = ask
        }
    }

    private let source: Source
    private let now: @Sendable () -> Date
    /// The sign-in the roster belongs to; another one starts afresh.
    private var signIn: SchoolToken?
    private var freshness = RosterFreshness()
    private var known = GradedPupils()
    private var asking: Task<GradedPupils, Never>?
    /// Counts `forget`s, so an answer asked for before one is not kept.
    private var generation = 0

    public init(_ source: Source, now: @escaping @Sendable () -> Date = Date.init) {
        self.source = source
        self.now = now
    }

    public func pupils() async -> GradedPupils {
        guard let task = lookUp(unknownName: false) else { return GradedPupils() }
        return await task.value
    }

    /// The roster, but nothing waits for the server longer than `seconds`:
    /// saving a grade and exporting go on without it. `grading`: the name
    /// of the pupil being graded; one the roster does not know asks again.
    public func pupils(waitingAtMost seconds: Double, grading name: String? = nil) async -> GradedPupils {
        let unknown = name.map { known.account(named: $0) == nil } ?? false
        guard let task = lookUp(unknownName: unknown) else { return GradedPupils() }
        let fallback = known
        // Not a task group: it would wait for its slower child, the
        // question itself, which a server that does not answer never ends.
        return await withCheckedContinuation { (answer: CheckedContinuation<GradedPupils, Never>) in
            let first = FirstAnswer(answer)
            let timer = Task { @MainActor in
                try? await Task.sleep(for: .seconds(seconds))
                first.give(fallback)
            }
            Task { @MainActor in
                first.give(await task.value)
                timer.cancel()
            }
        }
    }

    /// The teacher changed a class or its pupils (or may have: the server's
    /// answer was lost).
    public func forget() {
        freshness.forget()
        asking = nil
        generation += 1
    }

    private func lookUp(unknownName: Bool) -> Task<GradedPupils, Never>? {
        guard let current = source.teacherSignIn() else { return nil }
        if current != signIn {
            signIn = current
            known = GradedPupils()
            forget()
        }
        if let asking { return asking }
        let kept = known
        guard freshness.mustAsk(now: now(), unknownName: unknownName) else { return Task { kept } }
        let asked = generation, ask = source.ask
        let task = Task { @MainActor () -> GradedPupils in
            let answer = await ask().map { GradedPupils(roster: $0) }
            // Forgotten meanwhile (a change, or another sign-in): this
            // answer may not have the change.
            guard asked == generation else { return answer ?? kept }
            asking = nil
            if let answer {
                known = answer
                freshness.answered(at: now())
            } else {
                freshness.failed(at: now())
            }
            return known
        }
        asking = task
        return task
    }

    /// The classes as the roster knows them, by id, for the class menu.
    public nonisolated static func classes(_ pupils: GradedPupils) -> [(id: SchoolClassID, name: String)] {
        var seen = Set<SchoolClassID>()
        return pupils.roster.compactMap { seen.insert($0.classID).inserted ? ($0.classID, $0.className) : nil }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}

/// Resumes a waiting caller once, with whichever answer comes first.
@MainActor
private final class FirstAnswer {
    private var waiting: CheckedContinuation<GradedPupils, Never>?

    init(_ waiting: CheckedContinuation<GradedPupils, Never>) { self.waiting = waiting }

    func give(_ pupils: GradedPupils) {
        waiting?.resume(returning: pupils)
        waiting = nil
    }
}
