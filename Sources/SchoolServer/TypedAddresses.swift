import NIOCore

/// What a teacher types into the app to reach this server, printed when it
/// starts. A server listening on every address ("0.0.0.0") cannot be
/// reached at 0.0.0.0: it names the machine's own network addresses
/// instead, loopback last (for an app on the same machine). Each with its
/// scheme and port, since the app reads an address without a scheme as
/// HTTPS first.
public enum TypedAddresses {
    /// `ownAddresses`: this machine's IPv4 addresses, in the order the
    /// system lists them (loopback among them or not).
    public static func list(host: String, port: Int, tls: Bool, ownAddresses: [String]) -> [String] {
        let scheme = tls ? "https" : "http"
        let everywhere = ["", "0.0.0.0", "::", "[::]"].contains(host)
        let hosts = everywhere
            ? ownAddresses.filter { !$0.hasPrefix("127.") } + ["127.0.0.1"]
            : [host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host]
        var seen = Set<String>()
        return hosts.filter { seen.insert($0).inserted }.map { "\(scheme)://\($0):\(port)" }
    }

    /// The list for this machine as its network is now.
    public static func current(host: String, port: Int, tls: Bool) -> [String] {
        let own = ((try? System.enumerateDevices()) ?? []).compactMap { device -> String? in
            guard case .v4? = device.address else { return nil }
            return device.address?.ipAddress
        }
        return list(host: host, port: port, tls: tls, ownAddresses: own)
    }
}
