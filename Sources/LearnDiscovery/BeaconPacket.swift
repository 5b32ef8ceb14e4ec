/// The UDP beacon's wire format (docs/PROTOCOL.md, "Discovery"):
///
///     0  4  magic "TSKB"
///     4  1  packet format version (1)
///     5  1  kind: 1 announce, 2 goodbye
///     6  2  session TCP port, big-endian
///     8  …  TXT entries as in DNS-SD: one length byte, then `key=value`
///
/// Reusing the TXT encoding keeps one set of fields and rules for both
/// mechanisms. Packets are tiny (under 200 bytes), far below any MTU.
public struct BeaconPacket: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        case announce = 1
        /// Sent when a host withdraws, so listeners drop it at once instead
        /// of after the missed-beacon timeout.
        case goodbye = 2
    }

    public static let magic: [UInt8] = Array("TSKB".utf8)
    public static let formatVersion: UInt8 = 1
    /// Anything bigger is not ours; checked before parsing.
    public static let maxSize = 512

    public var kind: Kind
    public var announcement: SessionAnnouncement

    public init(kind: Kind = .announce, announcement: SessionAnnouncement) {
        self.kind = kind
        self.announcement = announcement
    }

    public func encoded() -> [UInt8] {
        var out = Self.magic
        out.append(Self.formatVersion)
        out.append(kind.rawValue)
        let port = UInt16(clamping: announcement.port)
        out.append(UInt8(port >> 8))
        out.append(UInt8(port & 0xFF))
        for entry in DiscoveryTXT.entries(for: announcement) {
            let bytes = Array(entry.utf8.prefix(DiscoveryTXT.maxEntryBytes))
            out.append(UInt8(bytes.count))
            out.append(contentsOf: bytes)
        }
        return out
    }

    public enum DecodeError: Error, Sendable, Equatable {
        case tooShort, tooLong, badMagic, unsupportedVersion(UInt8), unknownKind(UInt8)
        case truncatedEntry, badFields
    }

    /// Decodes one datagram. Anything that is not a well-formed beacon of a
    /// version we understand throws; the listener counts and drops it.
    public init(decoding bytes: some Collection<UInt8>) throws(DecodeError) {
        let b = Array(bytes)
        guard b.count <= Self.maxSize else { throw .tooLong }
        guard b.count >= 8 else { throw .tooShort }
        guard Array(b[0..<4]) == Self.magic else { throw .badMagic }
        // A newer format may change the layout after the version byte, so
        // it is not guessed at; newer hosts are expected to send version 1 too.
        guard b[4] == Self.formatVersion else { throw .unsupportedVersion(b[4]) }
        guard let kind = Kind(rawValue: b[5]) else { throw .unknownKind(b[5]) }
        let port = Int(b[6]) << 8 | Int(b[7])
        var entries: [[UInt8]] = []
        var i = 8
        while i < b.count {
            let n = Int(b[i])
            i += 1
            guard i + n <= b.count else { throw .truncatedEntry }
            entries.append(Array(b[i..<(i + n)]))
            i += n
        }
        guard let a = DiscoveryTXT.announcement(from: entries, port: port) else { throw .badFields }
        self.init(kind: kind, announcement: a)
    }
}
