import Foundation
import LearnBasics
import LearnSketch

/// The id of a change to a sketch, worked out from what the change is, so
/// every device that stores the same team sketch gives its ops the same ids
/// and the school server keeps each op once, however many members push it.
///
/// A name-based UUID (RFC 9562 version 8): the first 16 bytes of SHA-256
/// over the sketch id and a key naming the op. A stroke is named by its id,
/// an erasure by the stroke it erases, a clear by who cleared and when, and
/// the sketch's creation by the word "create". The sketch id is part of the
/// name, so the same stroke in two sketches (an imported copy) has two ids.
public enum SketchOpIdentity {
    public static func id(of op: SketchOp, in sketch: UUID) -> UUID {
        switch op {
        case .addStroke(let stroke): name(sketch, "add:" + stroke.id.lowercasedText)
        case .eraseStroke(let id, _, _): name(sketch, "erase:" + id.lowercasedText)
        case .clear(let by, let at): name(sketch, "clear:\(by):\(UnixMilliseconds.milliseconds(at))")
        }
    }

    public static func creation(of sketch: UUID) -> UUID { name(sketch, "create") }

    /// "`account` draws in this sketch": the host and the member name it
    /// alike, and the server keeps it once.
    public static func member(_ account: UUID, of sketch: UUID) -> UUID {
        name(sketch, "member:" + account.lowercasedText)
    }

    static func name(_ sketch: UUID, _ key: String) -> UUID {
        var bytes = SHA256.hash(Array("teamsketch.op.v1\n\(sketch.lowercasedText)\n\(key)".utf8))
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
