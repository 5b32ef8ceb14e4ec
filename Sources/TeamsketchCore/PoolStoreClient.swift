import Foundation
import LearnModel
import LearnStore

/// The store calls the word pool catalogue makes. `live` is a `LocalStore`;
/// tests wrap one to count calls or fail on cue.
public struct PoolStoreClient: Sendable {
    /// Stores the built-in pools never stored before; the ids inserted.
    public var loadBuiltInIfMissing: @Sendable (_ builtIn: [WordPool]) throws -> [String]
    /// The pools not deleted, built-in ones first.
    public var pools: @Sendable () throws -> [WordPool]
    /// The ids of the pools the teacher gave a class.
    public var assignedPools: @Sendable (_ classID: SchoolClassID) throws -> [String]

    public init(loadBuiltInIfMissing: @escaping @Sendable ([WordPool]) throws -> [String],
                pools: @escaping @Sendable () throws -> [WordPool],
                assignedPools: @escaping @Sendable (SchoolClassID) throws -> [String] = { _ in [] }) {
        self.loadBuiltInIfMissing = loadBuiltInIfMissing
        self.pools = pools
        self.assignedPools = assignedPools
    }

    public static func live(_ store: LocalStore) -> PoolStoreClient {
        PoolStoreClient(loadBuiltInIfMissing: { try store.loadBuiltInPoolsIfMissing($0) },
                        pools: { try store.pools() }, assignedPools: { try store.assignedPools(classID: $0.text) })
    }
}
