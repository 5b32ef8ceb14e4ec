import Foundation
import LearnBasics

/// How a class's watcher gets in without the host pressing "let in": the
/// teacher's class wall must show every group of the class at once, and a
/// pupil of seven does not know to accept the teacher.
///
/// The school server gives each class a secret key, to the class's teacher
/// and to the laptops its pupils sign in on. A watcher shows it holds the
/// key with an HMAC-SHA256 over the session, its own peer id and the
/// address it dialled; a host whose signed-in pupil belongs to that class
/// checks it against the address the connection reached. The proof lets
/// in watchers only, never painters. It proves the class, not the person:
/// a classmate's laptop holds the key as well, and the class sees the
/// groups on the projected wall anyway; a stranger, or another class,
/// still waits for the host. Bound to one session, one peer id and one
/// address, a proof opens no other session, and a machine that announced
/// the session first and passes the wall's hello on to the real host gets
/// nothing by it: the proof names the passer's address. (Whoever can read
/// the classroom network can read the sketch's frames anyway.)
public enum WatchProof {
    /// Bytes of a proof, and of a class's key.
    public static let size = 32

    /// `dialled`: the host's address and port as the watcher connected to
    /// them, as `addressText` writes them.
    public static func make(key: [UInt8], session: UUID, watcher: UUID, dialled: String) -> [UInt8] {
        HMAC.sha256(key: key, message: Array(message(session: session, watcher: watcher, dialled: dialled).utf8))
    }

    /// Whether `proof` was made with `key` for this session and watcher;
    /// compared in constant time, so the time taken says nothing of it.
    public static func verify(_ proof: [UInt8]?, key: [UInt8], session: UUID, watcher: UUID, dialled: String) -> Bool {
        guard let proof, proof.count == size, key.count == size else { return false }
        let expected = make(key: key, session: session, watcher: watcher, dialled: dialled)
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

    private static func message(session: UUID, watcher: UUID, dialled: String) -> String {
        "teamsketch.watch.v1\n\(session.lowercasedText)\n\(watcher.lowercasedText)\n\(dialled)"
    }

    /// An address and port as a proof names them: "192.0.2.2:47851",
    /// "[fe80::1]:47851" (lowercase, without a zone; an IPv4 address seen
    /// by an IPv6 socket as itself).
    public static func addressText(host: String, port: Int) -> String {
        var bare = (host.split(separator: "%", maxSplits: 1).first.map(String.init) ?? host).lowercased()
        if bare.hasPrefix("::ffff:"), bare.contains(".") { bare.removeFirst(7) }
        return bare.contains(":") ? "[\(bare)]:\(port)" : "\(bare):\(port)"
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
