import Foundation
import LearnBasics

/// A school server found on the LAN, ready to be connected to: what the
/// desktop's "choose server" screen and `find-servers` show.
public struct SchoolServerAddress: Hashable, Sendable {
    /// The DNS-SD instance name, cleaned for display ("Teamsketch server on schule").
    public var name: String
    /// An IP address literal, as the resolver gave it.
    public var host: String
    public var port: Int
    public var tls: Bool
    /// Where the API starts, e.g. "/api/v1".
    public var path: String

    public init(name: String, host: String, port: Int, tls: Bool, path: String) {
        self.name = name
        self.host = host
        self.port = port
        self.tls = tls
        self.path = path
    }

    /// "http(s)://host:port/path"; IPv6 literals in brackets.
    public var urlString: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "https" : "http")://\(h):\(port)\(path)"
    }

    /// nil only if the fields were not checked (built by hand); every
    /// address `SchoolServerTXT.address` returns has a URL.
    public var url: URL? { URL(string: urlString) }
}

/// The school server's DNS-SD announcement (docs/PROTOCOL.md, "Finding the
/// school server"): service type, TXT keys `path`, `tls`, `v`, and the rules
/// a browser applies to what it hears. Everything heard is hostile input: any
/// device on the LAN can announce this type.
public enum SchoolServerTXT {
    public static let serviceType = "_teamsketch-server._tcp"
    /// The TXT format's version; a browser ignores versions it does not know.
    public static let version = 1
    public static let apiPath = "/api/v1"
    /// Longer paths are refused: ours is 7 bytes, and the path is shown and
    /// typed into URLs.
    public static let maxPathBytes = 64
    /// DNS-SD instance names are one DNS label.
    public static let maxNameBytes = 63
    /// The longest IPv6 literal is 45 characters.
    public static let maxHostBytes = 45

    /// The TXT entries the server publishes, in a fixed order.
    public static func entries(tls: Bool, path: String = apiPath) -> [String] {
        ["path=\(path)", "tls=\(tls ? 1 : 0)", "v=\(version)"]
    }

    /// The instance name a server announces: "Teamsketch server on <host>",
    /// the host part cut so the whole stays within one DNS label.
    public static func instanceName(hostName: String) -> String {
        let prefix = "Teamsketch server on "
        let host = DisplayName.cleaned(hostName, maxBytes: maxNameBytes - prefix.utf8.count)
        return host.isEmpty ? "Teamsketch server" : prefix + host
    }

    /// A resolved service as an address, or nil when anything is missing,
    /// malformed or out of range: an unknown version, a port outside
    /// 1–65535, a `tls` other than 0/1, a path that is not a short absolute
    /// URL path, a host that is not an IP literal, a name with nothing
    /// visible. Control and reordering characters are removed from the name.
    public static func address(name: String, host: String, port: Int, txt entries: [[UInt8]]) -> SchoolServerAddress? {
        let fields = DiscoveryTXT.fields(from: entries)
        guard let v = fields["v"], v == String(version),
              let tlsText = fields["tls"], tlsText == "0" || tlsText == "1",
              let path = fields["path"], isAcceptablePath(path),
              (1...65535).contains(port),
              isIPLiteral(host) else { return nil }
        let shown = DisplayName.cleaned(name, maxBytes: maxNameBytes)
        guard !shown.isEmpty else { return nil }
        return SchoolServerAddress(name: shown, host: host, port: port, tls: tlsText == "1", path: path)
    }

    public static func address(name: String, host: String, port: Int, txt entries: [String]) -> SchoolServerAddress? {
        address(name: name, host: host, port: port, txt: entries.map { Array($0.utf8) })
    }

    /// An absolute path of URL-safe characters only, so appending it to
    /// "scheme://host:port" can never change the host: no "//" (which a
    /// careless join reads as an authority), no "..", no "?", "#", "%", "@"
    /// or spaces.
    static func isAcceptablePath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count <= maxPathBytes,
              !path.contains("//"), !path.split(separator: "/").contains("..") else { return false }
        return bytes.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || "/-._~".utf8.contains(b)
        }
    }

    /// The resolver hands over an address it printed itself; this still
    /// refuses anything that could not be one, before it goes into a URL.
    static func isIPLiteral(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= maxHostBytes else { return false }
        if !host.contains(":") { return IPv4Address(host) != nil }
        return host.utf8.allSatisfy { b in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
        }
    }
}
