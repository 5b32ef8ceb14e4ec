import Foundation

/// A pupil's drawn profile picture as PNG bytes from a file or the network,
/// checked before anything decodes it: a few kilobytes may claim a picture
/// of 30,000 × 30,000 pixels, which would take gigabytes to unpack. Only the
/// header is read here; the decoder runs only on what passes.
public enum AvatarPNG {
    /// Drawn at 128 × 128; anything up to 512 on a side is shown.
    public static let maxSide = 512
    public static let maxBytes = SessionLimits.maxAvatarBytes

    /// Width and height from the PNG's IHDR chunk, or nil when the bytes do
    /// not start like a PNG.
    public static func dimensions(_ bytes: some Collection<UInt8>) -> (width: Int, height: Int)? {
        let head = Array(bytes.prefix(24))
        guard head.count == 24, head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              Array(head[12..<16]) == Array("IHDR".utf8) else { return nil }
        func u32(_ i: Int) -> Int { head[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// Whether the bytes may be decoded and shown as an avatar.
    public static func isAcceptable(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count <= maxBytes, let size = dimensions(bytes) else { return false }
        return (1...maxSide).contains(size.width) && (1...maxSide).contains(size.height)
    }
}
