import Foundation
import LearnBasics
import LearnSession

/// What a hosting app tells the network about its session. The same fields
/// travel in DNS-SD TXT records and in beacons, so every mechanism reports
/// the same thing.
public struct SessionAnnouncement: Sendable, Hashable {
    /// The session protocol this app speaks (the TXT `v=` key).
    public static let currentProtocolVersion = Int(SessionProtocol.version)
    /// DNS-SD instance names are limited to 63 bytes; the beacon keeps the
    /// same limit so both show the same name.
    public static let maxHostNameBytes = 63
    public static let maxSessionIDBytes = 64

    public var sessionID: String
    public var hostName: String
    public var activity: SessionActivity
    /// The session's TCP port (sent in the SRV record or the beacon header).
    public var port: Int
    public var protocolVersion: Int
    public var lobbyOpen: Bool
    /// The class of the pupil hosting, when one is signed in (`cls=`).
    public var classTag: ClassTag?

    /// Normalises the name (`DisplayName`'s rule, cut to 63 UTF-8 bytes) so
    /// what is announced is what listeners will decode.
    public init(sessionID: String, hostName: String, activity: SessionActivity, port: Int,
                protocolVersion: Int = SessionAnnouncement.currentProtocolVersion, lobbyOpen: Bool = true,
                classTag: ClassTag? = nil) {
        self.sessionID = sessionID
        self.hostName = Self.normalizedHostName(hostName)
        self.activity = activity
        self.port = port
        self.protocolVersion = protocolVersion
        self.lobbyOpen = lobbyOpen
        self.classTag = classTag
    }

    /// Session ids are printable ASCII without spaces: they end up in TXT
    /// values, CLI output and logs.
    public static func isValidSessionID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxSessionIDBytes && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    public var isValid: Bool {
        Self.isValidSessionID(sessionID) && !hostName.isEmpty && (1...65535).contains(port) && protocolVersion >= 0
    }

    static func normalizedHostName(_ name: String) -> String {
        DisplayName.cleaned(name, maxBytes: maxHostNameBytes)
    }
}
