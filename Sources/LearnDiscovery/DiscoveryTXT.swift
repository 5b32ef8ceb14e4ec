import LearnSession
/// The key=value pairs that describe a session, shared by the DNS-SD TXT
/// record and the beacon packet: `v`, `id`, `host`, `act`, `open`, and
/// `cls` when the host belongs to a class.
///
/// Rules follow RFC 6763 §6: keys are case-insensitive, only the first
/// occurrence of a key counts, unknown keys are ignored (so later versions
/// can add some), and each entry fits in 255 bytes.
public enum DiscoveryTXT {
    public static let maxEntryBytes = 255

    /// The entries in a fixed order, as UTF-8 `key=value` strings.
    public static func entries(for a: SessionAnnouncement) -> [String] {
        [
            "v=\(a.protocolVersion)",
            "id=\(a.sessionID)",
            "host=\(a.hostName)",
            "act=\(a.activity.rawValue)",
            "open=\(a.lobbyOpen ? 1 : 0)",
        ] + (a.classTag.map { ["cls=\($0)"] } ?? [])
    }

    /// Reads the fields from raw entries; the port comes from elsewhere (SRV
    /// record or beacon header). Returns nil when a required key is missing
    /// or malformed, so a foreign or broken record never becomes a session.
    public static func announcement(from entries: [[UInt8]], port: Int) -> SessionAnnouncement? {
        let fields = fields(from: entries)
        guard let vText = fields["v"], let version = Int(vText), version >= 0,
              let id = fields["id"], SessionAnnouncement.isValidSessionID(id),
              let host = fields["host"],
              let activity = fields["act"].flatMap(SessionActivity.init(rawValue:)),
              let open = fields["open"], open == "0" || open == "1",
              (1...65535).contains(port) else { return nil }
        // The class is optional: a malformed one is as good as none.
        let a = SessionAnnouncement(sessionID: id, hostName: host, activity: activity, port: port,
                                    protocolVersion: version, lobbyOpen: open == "1",
                                    classTag: fields["cls"].flatMap(ClassTag.init(rawValue:)))
        return a.hostName.isEmpty ? nil : a
    }

    /// The key=value pairs of a TXT record under RFC 6763's rules, with
    /// lower-cased keys. Entries that are empty, too long, not UTF-8 or have
    /// a key outside printable ASCII are skipped, never fatal: every service
    /// type we read (sessions, school servers) starts from this.
    public static func fields(from entries: [[UInt8]]) -> [String: String] {
        var fields: [String: String] = [:]
        for entry in entries {
            guard !entry.isEmpty, entry.count <= maxEntryBytes else { continue }
            let key: [UInt8], value: [UInt8]
            if let eq = entry.firstIndex(of: UInt8(ascii: "=")) {
                key = Array(entry[..<eq])
                value = Array(entry[(eq + 1)...])
            } else {
                key = entry
                value = []
            }
            guard !key.isEmpty, key.allSatisfy({ (0x20...0x7E).contains($0) }),
                  let k = strictUTF8(key)?.lowercased(),
                  fields[k] == nil,
                  let v = strictUTF8(value) else { continue }
            fields[k] = v
        }
        return fields
    }

    // String(validating:) needs macOS 15; this keeps the macOS 13 floor.
    private static func strictUTF8(_ bytes: [UInt8]) -> String? {
        let s = String(decoding: bytes, as: UTF8.self)
        return s.utf8.elementsEqual(bytes) ? s : nil
    }

    public static func announcement(from entries: [String], port: Int) -> SessionAnnouncement? {
        announcement(from: entries.map { Array($0.utf8) }, port: port)
    }
}
