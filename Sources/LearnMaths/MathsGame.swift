import Foundation

/// One pupil's answer to one question: what she pressed before the right
/// key (nothing when she knew it at once) and how long she took.
public struct MathsAnswer: Codable, Hashable, Sendable {
    public var question: MathsQuestion
    /// The wrong keys pressed, in order; empty when the first was right.
    public var wrongTries: [Int]
    public var milliseconds: Int64

    public init(question: MathsQuestion, wrongTries: [Int], milliseconds: Int64) {
        self.question = question; self.wrongTries = wrongTries; self.milliseconds = milliseconds
    }

    /// Right at the first try: what the teacher's overview counts.
    public var right: Bool { wrongTries.isEmpty }
}

/// What the screen does after a key press.
public enum MathsEffect: Hashable, Sendable {
    /// A right answer: play this note (MIDI) and show the next question.
    case rightNote(Int)
    /// A wrong answer: a soft sound; the pressed key stays down.
    case wrongSound
    /// The last question was answered: the answers, in order.
    case finished([MathsAnswer])
}

/// The maths game of one pupil, without a window (events in, effects out):
/// a question, its keys, and the answers so far. A wrong key stays pressed
/// and the question stays until the right one; the game ends after the
/// last question. Endless practice gives it one question at a time.
public struct MathsGame: Sendable {
    public let set: ExerciseSet
    /// Mixed into each question's key seed, so a set's keys are the same
    /// for every pupil of an assignment.
    public let seed: UInt64
    public private(set) var index = 0
    public private(set) var answers: [MathsAnswer] = []
    /// The keys of the current question pressed wrongly (they stay down).
    public private(set) var pressedWrong: [Int] = []
    private var askedAt: Date

    public init(set: ExerciseSet, seed: UInt64, at now: Date) {
        self.set = set; self.seed = seed; askedAt = now
    }

    public var question: MathsQuestion? { index < set.questions.count ? set.questions[index] : nil }
    public var isFinished: Bool { question == nil }
    public var keys: [Int] {
        question.map { PianoKeys.keys(for: $0, seed: seed &+ UInt64(index)) } ?? []
    }
    /// Right answers so far, which is also how far the tune has got.
    public var rightCount: Int { answers.count }

    /// The pupil pressed the key showing `value` (by touch, mouse or typing it).
    public mutating func press(_ value: Int, at now: Date) -> [MathsEffect] {
        guard let question else { return [] }
        guard value == question.answer else {
            guard !pressedWrong.contains(value) else { return [] }
            // As many as there are wrong keys: a typed number that is on no
            // key sounds as wrong but is not kept beyond that.
            if pressedWrong.count < PianoKeys.count - 1 { pressedWrong.append(value) }
            return [.wrongSound]
        }
        let elapsed = max(0, now.timeIntervalSince(askedAt))
        answers.append(MathsAnswer(question: question, wrongTries: pressedWrong,
                                   milliseconds: Int64(min(elapsed, 86_400) * 1000)))
        let note = MathsTune.note(answers.count - 1)
        index += 1
        pressedWrong = []
        askedAt = now
        return isFinished ? [.rightNote(note), .finished(answers)] : [.rightNote(note)]
    }
}
