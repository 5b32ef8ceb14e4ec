/// How long the school keeps a class after it is archived, as the admin
/// chooses it in the teacher's window: kept until its pupils are removed,
/// or erased after one, two or five years (the server accepts any number
/// of days from 30 to 3650; one set elsewhere shows as its days).
public enum ArchiveRetention: Hashable, Sendable {
    case kept
    case years(Int)
    case days(Int)

    /// What the window offers, in its order.
    public static let choices: [ArchiveRetention] = [.kept, .years(1), .years(2), .years(5)]

    /// As the server says it (`days` absent: kept).
    public init(days: Int?) {
        guard let days else { self = .kept; return }
        if let years = Self.choices.lazy.compactMap({ choice -> Int? in
            if case .years(let y) = choice, y * Self.daysPerYear == days { return y }
            return nil
        }).first {
            self = .years(years)
        } else {
            self = .days(days)
        }
    }

    /// As the server takes it.
    public var days: Int? {
        switch self {
        case .kept: nil
        case .years(let years): years * Self.daysPerYear
        case .days(let days): days
        }
    }

    /// A year as the server counts it from the day of archiving.
    static let daysPerYear = 365
}
