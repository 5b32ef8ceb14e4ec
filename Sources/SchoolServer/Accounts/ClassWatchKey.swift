import Foundation
import LearnModel

/// A class's secret for watching its groups (`WatchProof` in LearnModel):
/// 32 random bytes as lowercase hex. The server hands it to the class's
/// teacher (their class wall proves it to the group's host) and to the
/// class's pupils when they sign in (their laptop, hosting a group, checks
/// it). Nobody else gets it: another teacher's wall, or another class's
/// laptop, waits for the host to let it in as before.
public struct ClassWatchKey: Sendable, Hashable {
    public let hex: String

    /// The one text of a key the laptops read too (`WatchProof.key(hex:)`).
    public init?(hex: String) {
        guard WatchProof.key(hex: hex) != nil else { return nil }
        self.hex = hex
    }

    public static func random() -> ClassWatchKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<WatchProof.size).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return ClassWatchKey(hex: bytes.map { String(format: "%02x", $0) }.joined())!
    }
}
