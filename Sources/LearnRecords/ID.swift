import Foundation
import LearnBasics

/// An identifier that knows what it names: a class's id cannot be passed
/// where a pupil's is wanted, and the compiler says so. It holds the id's
/// wire form, the text the school server sends and stores, which is
/// lowercase: an id made from a UUID is its lowercase text, and text read
/// in capitals is lowercased here, once, so two spellings of one id are
/// equal wherever they meet.
public struct ID<Kind>: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The wire form.
    public let text: String

    public init(_ uuid: UUID) { text = uuid.lowercasedText }

    public init(_ text: String) {
        self.text = UUID(text: text)?.lowercasedText ?? text.lowercased()
    }

    public init(stringLiteral text: String) { self.init(text) }

    /// An id read from a file or the network: nil for one no server makes
    /// (empty, or its wire form longer than `maxLength`).
    public init?(wire text: String) {
        guard text.utf8.count <= Self.maxLength else { return nil }
        self.init(text)
        guard !self.text.isEmpty, self.text.utf8.count <= Self.maxLength else { return nil }
    }

    /// The id as a UUID, when it is one.
    public var uuid: UUID? { UUID(text: text) }

    public var description: String { text }

    public static func < (a: Self, b: Self) -> Bool { a.text < b.text }
}

extension ID: Codable {
    /// Longer than any id the server makes (a UUID's text is 36): a stored
    /// or received id longer than this is refused before it is kept.
    public static var maxLength: Int { 128 }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Self(wire: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "an id of \(text.utf8.count) bytes"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}

/// What an `ID` names.
public enum IDKind {
    /// A school class on the school server.
    public enum SchoolClass {}
    /// An account on the school server: a pupil's or a teacher's.
    public enum Account {}
    /// A piece of work a teacher grades: a sketch, or a pupil's games.
    public enum GradedWork {}
}

/// A school class's id on the school server.
public typealias SchoolClassID = ID<IDKind.SchoolClass>
/// A pupil's or a teacher's account id on the school server.
public typealias AccountID = ID<IDKind.Account>
/// A graded sketch's or game's id (`GradeRecord.targetId`).
public typealias GradedWorkID = ID<IDKind.GradedWork>
