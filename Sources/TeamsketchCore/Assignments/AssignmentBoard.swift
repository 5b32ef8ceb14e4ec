import Foundation
import LearnModel

/// One "From your teacher" card on a pupil's start screen.
public struct AssignmentCard: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case draw, wordPost, maths }

    public var id: UUID
    public var kind: Kind
    /// What to draw, or the maths set's name; nil for Buchstaben Post,
    /// whose screen names its word list.
    public var title: String?
    /// "2026-12-24", or nil.
    public var due: String?
    /// She has answered it: the card shows a tick.
    public var done: Bool
}

/// Which tasks a pupil's start screen shows, in which order, and which are
/// new to her. Tasks of her class that are for her and not taken back;
/// open ones first, the soonest due first (undated after dated), then done
/// ones; within that, the task set first comes first.
public enum AssignmentBoard {
    public static func cards(for pupil: AccountID, tasks: [UUID: AssignmentRecord],
                             answered: Set<UUID>) -> [AssignmentCard] {
        let mine = tasks.filter { !$0.value.deleted && $0.value.isFor(pupil) }
        let ordered = mine.sorted { a, b in
            let (doneA, doneB) = (answered.contains(a.key), answered.contains(b.key))
            if doneA != doneB { return !doneA }
            let dueA = a.value.due ?? "9999", dueB = b.value.due ?? "9999"
            if dueA != dueB { return dueA < dueB }
            if a.value.at != b.value.at { return a.value.at < b.value.at }
            return a.key.uuidString < b.key.uuidString
        }
        return ordered.map { id, task in
            switch task.task {
            case .draw(let prompt, _, _, _):
                AssignmentCard(id: id, kind: .draw, title: prompt, due: task.due, done: answered.contains(id))
            case .wordPost:
                AssignmentCard(id: id, kind: .wordPost, title: nil, due: task.due, done: answered.contains(id))
            case .maths(let set):
                AssignmentCard(id: id, kind: .maths, title: set.name.isEmpty ? nil : set.name, due: task.due,
                               done: answered.contains(id))
            }
        }
    }

    /// The open cards she has not been told of yet: the screen plays the
    /// new-task sound and shows a badge for them, and then counts them seen.
    public static func news(_ cards: [AssignmentCard], seen: Set<UUID>) -> [AssignmentCard] {
        cards.filter { !$0.done && !seen.contains($0.id) }
    }
}
