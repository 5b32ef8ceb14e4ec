import Foundation
import LearnBasics

/// How the school server knows who started a team sketch. Every member's
/// laptop holds the sketch's id and its creation and pushes both (so the
/// server takes the members' ops however the pushes interleave), and the
/// one named as creator alone renames and deletes the sketch. So the host's
/// laptop makes the id from the creator's account and a random nonce: the
/// id is the first 16 bytes of SHA-256 over both (RFC 9562 version 8, a
/// version no other sketch id has), and the creation carries the nonce.
/// Whoever pushes the creation first, the server takes it only if it names
/// the account the id was made for: a member cannot make the sketch their
/// own or a classmate's, and the nonce may be told to every member. Sketch
/// ids of other versions (drawn alone and never told to anyone, hosted by a
/// laptop without a school account, or made before this rule) are started
/// by whoever pushes them.
public enum TeamSketchID {
    /// The id of a sketch `creator` hosts, told apart from their other
    /// sketches by `nonce`.
    public static func make(creator: UUID, nonce: UUID) -> UUID {
        let text = "teamsketch.sketch.v2\n\(creator.lowercasedText)\n\(nonce.lowercasedText)"
        var bytes = SHA256.hash(Array(text.utf8))
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Whether the id was made for its creator: its creation must then name
    /// that creator with the nonce.
    public static func isBound(_ sketchID: UUID) -> Bool { sketchID.uuid.6 >> 4 == 8 }

    /// Whether `creator` and `nonce` are what the bound `sketchID` was made of.
    public static func binds(_ sketchID: UUID, creator: UUID, nonce: UUID) -> Bool {
        make(creator: creator, nonce: nonce) == sketchID
    }
}
