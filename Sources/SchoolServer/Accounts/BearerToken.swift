import Crypto
import Foundation

/// A sign-in token: 32 random bytes, base64url, given to the client once;
/// the database keeps only its SHA-256, so a stolen copy of the database
/// signs nobody in.
public struct BearerToken: Sendable, Hashable {
    public let text: String

    public init(text: String) { self.text = text }

    public static func random() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return BearerToken(text: Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: ""))
    }

    /// What the database stores and looks up.
    public var hash: String { sha256Hex(text) }

    /// A token a client could have been given: anything else is refused
    /// before the database is asked.
    public var isWellFormed: Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { c in
            (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D || c == 0x5F
        }
    }
}

/// The SHA-256 of a text's UTF-8 bytes, in lowercase hex: how secrets and
/// untrusted keys are kept without keeping them.
func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
}
