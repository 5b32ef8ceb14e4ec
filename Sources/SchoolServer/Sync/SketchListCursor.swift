import Foundation
import LearnModel

/// Where the next page of a sketch list starts: the last sketch of the page
/// before, by the list's order (latest time first, then id; the time is
/// the last change, or for deleted sketches the deletion). Sent as
/// "<time>.<id>"; anything else is not a cursor.
///
/// A sketch changed while someone pages moves to the front: the pages
/// after it neither repeat nor skip any other sketch.
public struct SketchListCursor: Sendable, Hashable {
    public var at: Int64
    public var id: UUID

    public init(at: Int64, id: UUID) {
        self.at = at
        self.id = id
    }

    /// Server times are milliseconds since 1970, never negative; 16 digits
    /// hold them for 300,000 years and fit an Int64 without a check.
    public init?(text: String) {
        guard text.utf8.count <= Self.maxLength else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...16).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy({ (48...57).contains($0) }),
              let time = Int64(parts[0]), let id = UUID(text: String(parts[1]))
        else { return nil }
        self.init(at: time, id: id)
    }

    public var text: String { "\(at).\(id.key)" }

    /// 16 digits, a dot and a UUID.
    public static let maxLength = 53
}
