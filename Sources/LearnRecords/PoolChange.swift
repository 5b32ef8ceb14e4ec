import Foundation
import LearnWordPost

/// A word pool saved or deleted, as the device's outbox and the school
/// server carry it: the whole pool, since pools are small and a teacher
/// edits them as a list. The last save in server order wins.
public struct PoolChange: Codable, Hashable, Sendable {
    public enum Change: String, Codable, Sendable { case save, delete }
    public var change: Change
    public var pool: WordPool?
    /// When the change happened (Unix ms).
    public var at: Int64

    public init(change: Change, pool: WordPool? = nil, at: Int64) {
        self.change = change; self.pool = pool; self.at = at
    }

    public func encoded() throws -> Data { try JSONEncoder().encode(self) }
}

/// A teacher gives a word pool to a class, or takes it back. The pupils of
/// the class then see the pool; the last change in server order wins.
public struct PoolAssignment: Codable, Hashable, Sendable {
    /// Lowercase UUID of the class.
    public var classId: String
    public var assigned: Bool
    public var at: Int64

    public init(classId: String, assigned: Bool, at: Int64) {
        self.classId = classId; self.assigned = assigned; self.at = at
    }
}
