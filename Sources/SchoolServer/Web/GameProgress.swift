import Foundation

/// A pupil's Buchstaben Post rounds week by week, oldest first, so a
/// teacher (or the pupil) sees whether words come faster than a month ago.
/// Weeks start on Monday, counted in UTC, the same for every visitor (a
/// round in the first hours of a Monday in Europe counts to the week before).
struct GameProgress: Sendable, Equatable {
    struct Week: Sendable, Equatable {
        /// Monday 00:00 UTC of the week.
        var start: Date
        var rounds: Int
        var finished: Int
        /// Average over the finished rounds, whole seconds; nil without one.
        var secondsPerWord: Int?
        var wrongPlacements: Int
    }

    /// A round as the laptops record it, reduced to what progress needs.
    struct Round: Sendable, Equatable {
        var playedAt: Date
        var finished: Bool
        var milliseconds: Int
        var wrongPlacements: Int
    }

    private(set) var weeks: [Week] = []

    /// At most this many weeks are shown: a school year and a half.
    static let maxWeeks = 80

    init(_ rounds: [Round]) {
        var byWeek: [Date: [Round]] = [:]
        for round in rounds { byWeek[Self.weekStart(of: round.playedAt), default: []].append(round) }
        weeks = byWeek.keys.sorted().suffix(Self.maxWeeks).map { start in
            let rounds = byWeek[start] ?? []
            let done = rounds.filter(\.finished)
            // Milliseconds as the laptops sent them are capped on reading
            // (`RoundResult`), so the sum cannot overflow.
            let average = done.isEmpty ? nil : done.map(\.milliseconds).reduce(0, +) / done.count / 1000
            return Week(start: start, rounds: rounds.count, finished: done.count, secondsPerWord: average,
                        wrongPlacements: rounds.map(\.wrongPlacements).reduce(0, +))
        }
    }

    /// The most words finished in one week: the scale of the bars.
    var mostFinished: Int { weeks.map(\.finished).max() ?? 0 }

    static func weekStart(of date: Date) -> Date {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? date
    }
}
