/// What a session is for; carried as `act=` in DNS-SD TXT and beacons and
/// as the kind of the lobby's activity block. Activities name themselves, so
/// a new one needs no change here: any short lowercase word is a kind, and
/// a joiner lists only the kinds it can play.
public struct SessionActivity: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public static let maxBytes = 32
    public let rawValue: String

    /// 1–32 bytes of `a`–`z`, `0`–`9` and `-`: fits a TXT value and a CLI
    /// argument as it is.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maxBytes,
              rawValue.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
        else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static let sketch = SessionActivity(rawValue: "sketch")!
    public static let wordpost = SessionActivity(rawValue: "wordpost")!
}
