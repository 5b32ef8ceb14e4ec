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

    public init(loadBuiltInIfMissing: @escaping @Sendable ([WordPool]) throws -> [String],
                pools: @escaping @Sendable () throws -> [WordPool]) {
        self.loadBuiltInIfMissing = loadBuiltInIfMissing
        self.pools = pools
    }

    public static func live(_ store: LocalStore) -> PoolStoreClient {
        PoolStoreClient(loadBuiltInIfMissing: { try store.loadBuiltInPoolsIfMissing($0) },
                        pools: { try store.pools() })
    }
}
