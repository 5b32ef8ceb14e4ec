import Foundation
import LearnModel

/// The teacher's PIN on a machine, kept only as a salted, stretched hash,
/// so the file does not show the PIN at a glance. It keeps children out of
/// the teacher's window during a lesson; it is no protection against
/// someone with the laptop's account (a 4-digit PIN is tried against the
/// hash in seconds, and the file can be deleted): that is the operating
/// system's job.
public struct TeacherPIN: Codable, Equatable, Sendable {
    public var salt: String
    public var hash: String

    public init(salt: String, hash: String) {
        self.salt = salt
        self.hash = hash
    }

    /// A PIN is 4 to 8 digits: typed on a touch screen's number pad in a
    /// moment, and not guessed by a child in a lesson (the gate below waits
    /// after a few wrong tries).
    public static let lengths = 4...8
    static let rounds = 20_000

    public static func isWellFormed(_ pin: String) -> Bool {
        lengths.contains(pin.count) && pin.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Nil when `pin` is not 4–8 digits.
    public static func make(_ pin: String, salt: [UInt8]) -> TeacherPIN? {
        guard isWellFormed(pin) else { return nil }
        return TeacherPIN(salt: hex(salt), hash: hex(stretch(pin, salt: salt)))
    }

    public static func make(_ pin: String) -> TeacherPIN? {
        make(pin, salt: (0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    public func matches(_ pin: String) -> Bool {
        guard Self.isWellFormed(pin), let saltBytes = Self.bytes(hex: salt) else { return false }
        let candidate = Self.hex(Self.stretch(pin, salt: saltBytes))
        // Compared in full, so the time taken tells nothing of how much matched.
        return candidate.utf8.count == hash.utf8.count
            && zip(candidate.utf8, hash.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func stretch(_ pin: String, salt: [UInt8]) -> [UInt8] {
        var digest = SHA256.hash(salt + Array(pin.utf8))
        for _ in 1..<rounds { digest = SHA256.hash(digest + salt) }
        return digest
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count.isMultiple(of: 2), chars.count <= 128 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let b = UInt8(String(decoding: chars[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
        }
        return out
    }
}
