/// A six-digit code a child can type to join when nothing is discovered.
///
/// It encodes the last two octets of the host's IPv4 address and which of
/// the ten session ports the host listens on:
///
///     value = (octet3 × 256 + octet4) × 10 + portIndex      (0 … 655 359)
///     port  = JoinCode.basePort + portIndex                  (47851 … 47860)
///
/// The joiner completes the address with the first two octets of its own
/// address(es): classroom networks are /24 or /16, so host and joiner share
/// them. On loopback, 127.0.0.1 becomes code 000010 and the joiner's 127.0
/// prefix completes it. A host on another /16, or on a port outside the
/// session range, has no code and must be joined by HOST:PORT.
public struct JoinCode: Sendable, Hashable, CustomStringConvertible {
    /// First of the ten TCP ports a hosting app tries in order; kept clear of
    /// BACnet's conventional 47808–47823 (docs/PROTOCOL.md).
    public static let basePort = 47851
    public static let portCount = 10
    public static let sessionPorts: ClosedRange<Int> = basePort...(basePort + portCount - 1)
    public static let digitCount = 6
    static let maxValue = (255 * 256 + 255) * 10 + 9

    /// 0 … 655 359.
    public let value: Int

    public init?(value: Int) {
        guard (0...Self.maxValue).contains(value) else { return nil }
        self.value = value
    }

    /// The code for a host listening on `port`; nil when the port is not one
    /// of the session ports.
    public init?(host: IPv4Address, port: Int) {
        guard Self.sessionPorts.contains(port) else { return nil }
        value = (Int(host.octets.2) * 256 + Int(host.octets.3)) * 10 + (port - Self.basePort)
    }

    public enum ParseError: Error, Sendable, Equatable {
        case empty
        /// Something other than digits, spaces or dashes.
        case notDigits
        case wrongLength(Int)
        /// Six digits, but above 655359: a typo.
        case outOfRange
    }

    /// Accepts "123456", "123 456" and "123-456".
    public init(parsing text: String) throws(ParseError) {
        let kept = text.unicodeScalars.filter { !($0 == " " || $0 == "-" || $0 == "\u{00A0}") }
        guard !kept.isEmpty else { throw .empty }
        guard kept.allSatisfy({ ("0"..."9").contains($0) }) else { throw .notDigits }
        guard kept.count == Self.digitCount else { throw .wrongLength(kept.count) }
        guard let v = Int(String(String.UnicodeScalarView(kept))), let code = JoinCode(value: v) else {
            throw .outOfRange
        }
        self = code
    }

    public var portIndex: Int { value % 10 }
    public var port: Int { Self.basePort + portIndex }
    public var lowOctets: (UInt8, UInt8) {
        let pair = value / 10
        return (UInt8(pair / 256), UInt8(pair % 256))
    }

    /// The host address with the given first two octets.
    public func address(prefix: (UInt8, UInt8)) -> SessionAddress {
        let (c, d) = lowOctets
        return SessionAddress(host: IPv4Address(prefix.0, prefix.1, c, d).description, port: port)
    }

    /// The six digits, leading zeros kept: "000010".
    public var digits: String {
        let s = String(value)
        return String(repeating: "0", count: Self.digitCount - s.count) + s
    }

    /// "123 456": easier to read aloud and copy for a child.
    public var grouped: String {
        let d = digits
        return "\(d.prefix(3)) \(d.suffix(3))"
    }

    public var description: String { digits }
}
