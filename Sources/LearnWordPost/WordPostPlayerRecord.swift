import Foundation

/// A pupil's totals over every recorded round, what a teacher looks at.
public struct WordPostPlayerRecord: Hashable, Sendable {
    public var playerName: String
    public var rounds: [WordPostRoundStat]

    public init(playerName: String, rounds: [WordPostRoundStat]) {
        self.playerName = playerName
        self.rounds = rounds
    }

    public var wordsFinished: Int { rounds.count(where: \.finished) }
    public var totalMilliseconds: Int64 { rounds.reduce(0) { $0 + $1.milliseconds } }
    /// Average time of the finished rounds, nil before the first.
    public var averageMilliseconds: Int64? {
        let done = rounds.filter(\.finished)
        return done.isEmpty ? nil : done.reduce(0) { $0 + $1.milliseconds } / Int64(done.count)
    }
    public var lettersSent: Int { rounds.reduce(0) { $0 + $1.lettersSent } }
    public var lettersReceived: Int { rounds.reduce(0) { $0 + $1.lettersReceived } }
    public var wrongPlacements: Int { rounds.reduce(0) { $0 + $1.wrongPlacements } }
    /// Seconds each finished word took, oldest first: how the pupil gets on
    /// over time.
    public var finishedSeconds: [Double] {
        rounds.filter(\.finished).map { Double($0.milliseconds) / 1000 }
    }
}
