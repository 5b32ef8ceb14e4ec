import Foundation
import LearnModel

/// One pupil's recorded round as the reports add it up. Read from what a
/// laptop pushed (other fields are left unread) or from the server's own
/// table of rounds. Numbers are range-checked before anything adds them
/// up: a round that claims more than a day or more than `maxCount`
/// letters is not a round, and is left out.
public struct RoundResult: Decodable, Sendable, Equatable {
    var finished: Bool
    var milliseconds: Int
    var lettersSent: Int
    var lettersReceived: Int
    var wrongPlacements: Int
    var word: String
    /// Nil when the laptop sent no readable time.
    var playedAt: Date?

    static let maxMilliseconds = Int(WordPostRoundStat.maxMilliseconds)
    static let maxCount = WordPostRoundStat.maxCount

    private enum CodingKeys: String, CodingKey {
        case finished, milliseconds, lettersSent, lettersReceived, wrongPlacements, word, playedAt
    }

    /// A round the push rules accepted (`WordPostRoundStat.problem` holds
    /// it to these limits).
    init(_ stat: WordPostRoundStat) {
        finished = stat.finished
        milliseconds = Int(clamping: min(max(stat.milliseconds, 0), Int64(Self.maxMilliseconds)))
        lettersSent = min(max(stat.lettersSent, 0), Self.maxCount)
        lettersReceived = min(max(stat.lettersReceived, 0), Self.maxCount)
        wrongPlacements = min(max(stat.wrongPlacements, 0), Self.maxCount)
        word = String(stat.word.prefix(200))
        playedAt = SketchLimits.dates.contains(stat.playedAt) ? stat.playedAt : nil
    }

    /// A row of `roundResult`, checked again: the table is the server's,
    /// but a number out of range must never reach a sum.
    init(_ row: SQLRow) throws {
        func count(_ column: String, max: Int) throws -> Int {
            let value = try row.int(column)
            guard (0...Int64(max)).contains(value) else { throw DatabaseProblem.unexpectedRow(column: column) }
            return Int(value)
        }
        finished = try row.int("finished") != 0
        milliseconds = try count("milliseconds", max: Self.maxMilliseconds)
        lettersSent = try count("lettersSent", max: Self.maxCount)
        lettersReceived = try count("lettersReceived", max: Self.maxCount)
        wrongPlacements = try count("wrongPlacements", max: Self.maxCount)
        word = try row.text("word")
        playedAt = row["playedAt"].int.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            .flatMap { SketchLimits.dates.contains($0) ? $0 : nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        finished = try c.decode(Bool.self, forKey: .finished)
        func count(_ key: CodingKeys, max: Int) throws -> Int {
            // As a Double first: a number out of range is refused, never
            // converted with a trap (a fraction is cut to whole units).
            let value = try c.decode(Double.self, forKey: key)
            guard value.isFinite, value >= 0, value <= Double(max) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "out of range")
            }
            return Int(value)
        }
        milliseconds = try count(.milliseconds, max: Self.maxMilliseconds)
        lettersSent = try count(.lettersSent, max: Self.maxCount)
        lettersReceived = try count(.lettersReceived, max: Self.maxCount)
        wrongPlacements = try count(.wrongPlacements, max: Self.maxCount)
        word = String((try? c.decode(String.self, forKey: .word))?.prefix(200) ?? "")
        // The laptops' encoder writes seconds since 2001 (Foundation's
        // reference date); anything outside the sketches' dates is unread.
        playedAt = (try? c.decode(Double.self, forKey: .playedAt))
            .flatMap { $0.isFinite ? Date(timeIntervalSinceReferenceDate: $0) : nil }
            .flatMap { SketchLimits.dates.contains($0) ? $0 : nil }
    }
}
