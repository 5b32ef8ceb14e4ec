import Foundation
import LearnBasics

/// The answers offered for a question, as piano keys from the smallest
/// number on the left: the right one among numbers close to it (off by
/// one, two, ten: the mistakes children make), never below zero. The same
/// question and seed give the same keys on every laptop.
public enum PianoKeys {
    public static let count = 6

    public static func keys(for question: MathsQuestion, seed: UInt64) -> [Int] {
        let answer = question.answer
        var rng = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: answer &* 2_654_435_761))
        let near = [1, -1, 2, -2, 3, -3, 10, -10, 4, -4, 5, -5]
        var offsets = near
        // A few shuffles of the near misses, so the right key is not
        // always in the middle.
        for i in stride(from: offsets.count - 1, to: 0, by: -1) {
            offsets.swapAt(i, rng.nextInt(below: i + 1))
        }
        var keys: Set<Int> = [answer]
        for offset in offsets where keys.count < count {
            let key = answer + offset
            if key >= 0 { keys.insert(key) }
        }
        // Near zero there are fewer neighbours below: take more above.
        var above = answer + 6
        while keys.count < count { keys.insert(above); above += 1 }
        return keys.sorted()
    }
}

/// The tune a pupil plays by answering right, one note per right answer
/// ("Alle meine Entchen", a children's song every German class knows), as
/// MIDI note numbers from middle C.
public enum MathsTune {
    public static let notes: [Int] = [60, 62, 64, 65, 67, 67, 69, 69, 69, 69, 67, 69, 69, 69, 69, 67,
                                      65, 65, 65, 65, 64, 64, 62, 62, 62, 62, 60]
    /// The note of the `n`th right answer (0 first), starting over after
    /// the song's end.
    public static func note(_ n: Int) -> Int { notes[((n % notes.count) + notes.count) % notes.count] }
}
