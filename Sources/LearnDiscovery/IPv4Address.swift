/// A dotted-quad IPv4 address as plain octets: join codes, beacon sources and
/// prefixes need octet arithmetic, and this keeps it free of socket types.
public struct IPv4Address: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var octets: (UInt8, UInt8, UInt8, UInt8)

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        octets = (a, b, c, d)
    }

    /// Parses strict dotted-decimal ("192.168.1.5"); no shorthand forms like
    /// "10.1" that inet_aton would accept, because a child's typo should fail.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var values: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let v = UInt8(part) else { return nil }
            values.append(v)
        }
        self.init(values[0], values[1], values[2], values[3])
    }

    public var isLoopback: Bool { octets.0 == 127 }
    public var isUnspecified: Bool { self == IPv4Address(0, 0, 0, 0) }

    public var description: String { "\(octets.0).\(octets.1).\(octets.2).\(octets.3)" }

    private var value: UInt32 {
        UInt32(octets.0) << 24 | UInt32(octets.1) << 16 | UInt32(octets.2) << 8 | UInt32(octets.3)
    }

    public static func == (a: Self, b: Self) -> Bool { a.value == b.value }
    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
