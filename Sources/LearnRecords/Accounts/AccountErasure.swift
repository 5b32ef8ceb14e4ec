import Foundation

/// What every device forgets of a pupil their teacher removed for good: the
/// account's profile and the records of theirs a device may hold, named by
/// id because a device cannot tell them all apart itself (a sketch drawn
/// alone carries no account). Only the school server makes one, as it erases
/// the account; devices of the pupil's class and their teacher pull it.
public struct AccountErasure: Codable, Hashable, Sendable {
    /// The erased account, a lowercase UUID.
    public var account: String
    /// The sketches that went with the pupil (a team's stay with the team).
    public var sketches: [String]
    /// Word lists the pupil made (pool ids, as the pupil's laptop named them).
    public var pools: [String]
    public var grades: [String]
    /// Their game results (`WordPostRoundStat` ids).
    public var results: [String]

    public init(account: String, sketches: [String], pools: [String] = [], grades: [String], results: [String]) {
        self.account = account; self.sketches = sketches; self.pools = pools; self.grades = grades; self.results = results
    }

    /// More than a pupil can make in years of school: the server's quotas
    /// keep each list far below it.
    public static let maxRecords = 500_000

    /// Why a device must not apply it; nil when it is sound.
    public var problem: String? {
        guard UUID(text: account) != nil else { return "the erased account is not an id" }
        for (name, ids) in [("sketches", sketches), ("pools", pools), ("grades", grades), ("results", results)] {
            guard ids.count <= Self.maxRecords else { return "more \(name) than any pupil has" }
        }
        for (name, ids) in [("sketches", sketches), ("grades", grades), ("results", results)] {
            guard ids.allSatisfy({ UUID(text: $0) != nil }) else { return "the \(name) are not all ids" }
        }
        // Pool ids are a laptop's own words (1 to 100 of [A-Za-z0-9._-]),
        // never a built-in list's.
        guard pools.allSatisfy({ (1...100).contains($0.utf8.count) && !$0.hasPrefix("builtin.") }) else {
            return "the pools are not all word lists"
        }
        return nil
    }
}
