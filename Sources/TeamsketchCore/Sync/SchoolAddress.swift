import Foundation

/// A school server's address as a teacher types it ("schule.local",
/// "10.0.0.5:8470", "https://server.schule.de") or as DNS-SD found it.
/// HTTPS and port 8470 unless said otherwise; plain http only when typed
/// out, for a server on the same machine or behind a proxy.
public enum SchoolAddress {
    public static let defaultPort = 8470

    /// The server's base URL, or nil when the text names no server.
    public static func parse(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 300, !trimmed.contains(where: \.isWhitespace) else { return nil }
        let withScheme = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard var parts = URLComponents(string: withScheme),
              let scheme = parts.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = parts.host, !host.isEmpty,
              parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil
        else { return nil }
        if let port = parts.port, !(1...65535).contains(port) { return nil }
        parts.scheme = scheme
        parts.port = parts.port ?? defaultPort
        // The API's path is added by the client; a pasted one is dropped.
        parts.path = ""
        return parts.url
    }
}
