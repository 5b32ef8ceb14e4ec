import Foundation

/// DNS-SD instance names for a session.
public enum ServiceName {
    /// The next name to try after a collision: "Anna" → "Anna #2" → "Anna #3",
    /// Avahi's own scheme, kept within the 63-byte limit of an instance name.
    public static func alternative(_ name: String) -> String {
        var base = Substring(name)
        var next = 2
        if let hash = name.range(of: " #", options: .backwards),
           let n = Int(name[hash.upperBound...]), n >= 2, name[hash.upperBound...].allSatisfy(\.isASCII) {
            base = name[..<hash.lowerBound]
            next = n + 1
        }
        let suffix = " #\(next)"
        var kept = ""
        for c in base where kept.utf8.count + c.utf8.count + suffix.utf8.count <= SessionAnnouncement.maxHostNameBytes {
            kept.append(c)
        }
        return kept + suffix
    }
}
