import Foundation

/// A school server's address as a teacher types it ("schule.local",
/// "10.0.0.5:8470", "https://server.schule.de") or as DNS-SD found it.
/// Port 8470 unless said otherwise. Typed without a scheme it is tried
/// over HTTPS first and then plain HTTP (`candidates`): a server runs
/// without TLS unless given a certificate, and a teacher types what the
/// server printed without "http://".
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

    /// The addresses to try, in order: as typed when it names its scheme,
    /// else HTTPS and then HTTP. Empty when the text names no server.
    public static func candidates(_ text: String) -> [URL] {
        guard let url = parse(text) else { return [] }
        let typedScheme = text.trimmingCharacters(in: .whitespacesAndNewlines).contains("://")
        guard !typedScheme, var plain = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [url] }
        plain.scheme = "http"
        return [url] + (plain.url.map { [$0] } ?? [])
    }
}
