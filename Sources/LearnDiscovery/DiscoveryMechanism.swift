/// How a nearby session was found. The lobby shows these per session so a
/// teacher can tell which mechanism works on a given network.
public enum DiscoveryMechanism: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// DNS-SD `_teamsketch._tcp` over multicast DNS (Avahi).
    case dnssd
    /// Our own UDP beacon (multicast 224.0.0.198 and broadcast), for networks
    /// that filter multicast DNS.
    case beacon
    /// Typed by hand as a join code or HOST:PORT, for networks that block both.
    case code

    public var description: String { rawValue }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
