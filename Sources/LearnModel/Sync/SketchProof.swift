import Foundation

/// How the school server tells the laptop that started a team sketch from
/// its members. Every member's laptop holds the sketch's id and its
/// creation (each pushes them, so the server takes its ops however the
/// pushes interleave); a member pushing a creation under its own name
/// would become the sketch's creator, who alone renames and deletes it.
/// So the host's laptop makes the id from a secret it keeps to itself:
/// the id is the first 16 bytes of SHA-256 over the secret (RFC 9562
/// version 8, a version no other sketch id has), and only a creation that
/// comes with the secret may name its pusher as the creator. A member
/// pushing the host's creation as it was given names the host and needs
/// no secret. Sketch ids of other versions (drawn alone, never told to
/// anyone, or made before this rule) are started by whoever pushes them.
public enum SketchProof {
    /// 32 bytes from the system's generator, as 64 lowercase hex digits:
    /// the form it is kept and sent in.
    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in hex(UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The sketch id `secret` proves, nil for anything but 64 lowercase
    /// hex digits.
    public static func sketchID(for secret: String) -> UUID? {
        let digits = Array(secret.utf8)
        guard digits.count == 64, digits.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        var bytes = SHA256.hash(Array("teamsketch.sketch.v1\n".utf8) + digits)
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Whether a creation under the pusher's own name needs the secret.
    public static func needsProof(_ sketchID: UUID) -> Bool { sketchID.uuid.6 >> 4 == 8 }

    public static func proves(_ secret: String?, _ sketch: UUID) -> Bool {
        guard let secret, let id = sketchID(for: secret) else { return false }
        return id == sketch
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 0x0F)]])
    }
}
