import Foundation

/// How a class's watcher gets in without the host pressing "let in": the
/// teacher's class wall must show every group of the class at once, and a
/// pupil of seven does not know to accept the teacher.
///
/// The school server gives each class a secret key, to the class's teacher
/// and to the laptops its pupils sign in on. A watcher shows it holds the
/// key with an HMAC-SHA256 over the session and its own peer id; a host
/// whose signed-in pupil belongs to that class checks it. The proof lets
/// in watchers only, never painters. It proves the class, not the person:
/// a classmate's laptop holds the key as well, and the class sees the
/// groups on the projected wall anyway; a stranger, or another class,
/// still waits for the host. Bound to one session and one peer id, a proof
/// seen on the network opens no other session.
public enum WatchProof {
    /// Bytes of a proof, and of a class's key.
    public static let size = 32

    public static func make(key: [UInt8], session: UUID, watcher: UUID) -> [UInt8] {
        HMAC.sha256(key: key, message: Array(message(session: session, watcher: watcher).utf8))
    }

    /// Whether `proof` was made with `key` for this session and watcher;
    /// compared in constant time, so the time taken says nothing of it.
    public static func verify(_ proof: [UInt8]?, key: [UInt8], session: UUID, watcher: UUID) -> Bool {
        guard let proof, proof.count == size, key.count == size else { return false }
        let expected = make(key: key, session: session, watcher: watcher)
        return zip(proof, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A class's key as the school server writes it: 64 lowercase hex
    /// digits; anything else is no key.
    public static func key(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == size * 2 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    private static func message(session: UUID, watcher: UUID) -> String {
        "teamsketch.watch.v1\n\(session.uuidString.lowercased())\n\(watcher.uuidString.lowercased())"
    }
}

/// HMAC (RFC 2104) over the model's own SHA-256: LearnModel has no crypto
/// library.
enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let block = 64
        var k = key.count > block ? SHA256.hash(key) : key
        k += [UInt8](repeating: 0, count: block - k.count)
        let inner = SHA256.hash(k.map { $0 ^ 0x36 } + message)
        return SHA256.hash(k.map { $0 ^ 0x5c } + inner)
    }
}
