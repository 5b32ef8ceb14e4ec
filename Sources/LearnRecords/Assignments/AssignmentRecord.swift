import Foundation
import LearnBasics
import LearnMaths
import LearnSketch

/// A task a teacher sets a class, or chosen pupils of it: draw something
/// (alone or in groups), play Buchstaben Post with a word list, or answer a
/// maths set. Kept under an id the teacher's laptop chooses; each later
/// change is the whole record again, and the newest wins. Only the class's
/// teacher makes or changes it; the server checks that.
public struct AssignmentRecord: Codable, Hashable, Sendable {
    public enum Task: Codable, Hashable, Sendable {
        /// "Draw: <prompt>", by one pupil (`groupSize` 1) or groups of 2–4.
        case draw(prompt: String, groupSize: Int, guides: LineGuides, timeLimitMinutes: Int)
        /// Buchstaben Post with this word list, `words` words.
        case wordPost(poolId: String, words: Int)
        /// These questions, the same for every pupil (a generated set is
        /// made once, on the teacher's laptop).
        case maths(set: ExerciseSet)
    }

    public var classId: SchoolClassID
    /// The pupils it is for; nil for the whole class.
    public var pupils: [AccountID]?
    public var task: Task
    /// The day it is due, "2026-12-24", or nil.
    public var due: String?
    public var deleted: Bool
    public var at: Int64

    public static let maxPromptCharacters = 300
    public static let groupSizes = 1...4
    public static let timeLimits = 0...120
    public static let wordCounts = 1...50
    public static let maxPupils = 200
    /// An assignment or an answer as JSON: a hundred maths questions with
    /// their answers and tries fit several times over.
    public static let maxPayloadBytes = 96 * 1024

    public init(classId: SchoolClassID, pupils: [AccountID]? = nil, task: Task, due: String? = nil,
                deleted: Bool = false, at: Int64) {
        self.classId = classId; self.pupils = pupils; self.task = task; self.due = due
        self.deleted = deleted; self.at = at
    }

    /// Is it for this pupil?
    public func isFor(_ pupil: AccountID) -> Bool { pupils.map { $0.contains(pupil) } ?? true }

    /// Why the record cannot be kept, or nil.
    public var problem: String? {
        if let pupils {
            guard !pupils.isEmpty, pupils.count <= Self.maxPupils else {
                return "an assignment is for the class or for 1 to \(Self.maxPupils) of its pupils"
            }
            guard pupils.allSatisfy({ $0.uuid != nil }) else { return "an assignment names pupils by their account" }
        }
        if let due, !Self.isDay(due) { return "a due day is written 2026-12-24" }
        switch task {
        case .draw(let prompt, let groupSize, _, let timeLimit):
            guard !prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                  prompt.count <= Self.maxPromptCharacters, prompt.utf8.count <= Self.maxPromptCharacters * 8 else {
                return "what to draw is 1 to \(Self.maxPromptCharacters) characters"
            }
            guard Self.groupSizes.contains(groupSize) else { return "a drawing group has 1 to 4 pupils" }
            guard Self.timeLimits.contains(timeLimit) else { return "a time limit is 0 to 120 minutes" }
        case .wordPost(let poolId, let words):
            guard UUID(text: poolId) != nil || poolId.hasPrefix("builtin."), poolId.count <= 64 else {
                return "a word list is named by its id"
            }
            guard Self.wordCounts.contains(words) else { return "a game has 1 to 50 words" }
        case .maths(let set):
            if let problem = set.problem { return problem }
        }
        return nil
    }

    /// "YYYY-MM-DD" with a month and day that exist.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (2000...2200).contains(year), (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}
