import Foundation

/// A school server's sign-in token: sent with each request, never shown.
/// Printed (a log line, an error, a dump of a sign-in) it reads
/// `SchoolToken(…)`, so a token that ends up in a log or on a screen gives
/// nobody the account. Stored as the plain string it is, as before.
public struct SchoolToken: Codable, Hashable, Sendable, ExpressibleByStringLiteral,
                           CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What goes in the `Authorization` header. Read only where a request
    /// is made (the school client, the relay's endpoint).
    public let secret: String

    public init(_ secret: String) { self.secret = secret }
    public init(stringLiteral secret: String) { self.secret = secret }

    public init(from decoder: any Decoder) throws {
        secret = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secret)
    }

    public var description: String { "SchoolToken(…)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
