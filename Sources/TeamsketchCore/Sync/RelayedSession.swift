import Foundation
import LearnModel

/// A session the school server relays for one of this account's classes,
/// as the server lists it (`GET /relay/v1/sessions`).
public struct RelayedSession: Sendable, Hashable, Identifiable {
    /// The id the server relays it under (what a member dials).
    public var id: UUID
    /// The session's id on the room's network, as its host told the server
    /// (the relay id for a server or host from before the two differed).
    public var sessionID: UUID
    public var name: String
    public var hostName: String
    public var hostID: UUID
    public var classID: SchoolClassID
    public var activity: SessionActivity

    public init(id: UUID, sessionID: UUID? = nil, name: String, hostName: String, hostID: UUID, classID: SchoolClassID,
                activity: SessionActivity) {
        self.id = id
        self.sessionID = sessionID ?? id
        self.name = name
        self.hostName = hostName
        self.hostID = hostID
        self.classID = classID
        self.activity = activity
    }

    /// The pictures and colour the host's lobby shows for this session
    /// (made from its LAN id, as the host makes them).
    public var sign: SessionSign { SessionSign(sessionID: sessionID) }
}

public enum RelayListingError: Error, Equatable, Sendable {
    case tooBig
    case malformed
}

/// The server's list of relayed sessions, read as hostile input: its size
/// and count are capped before anything is decoded, and an entry that does
/// not make sense is left out rather than failing the whole list.
public enum RelayListing {
    public static let maxBytes = 256 * 1024
    public static let maxSessions = 200
    /// A host's name as a lobby shows it; longer ones are cut.
    static let maxNameCharacters = 60

    public static func decode(_ data: Data) throws(RelayListingError) -> [RelayedSession] {
        guard data.count <= maxBytes else { throw .tooBig }
        guard let entries = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else { throw .malformed }
        guard entries.count <= maxSessions else { throw .tooBig }
        var seen = Set<UUID>()
        return entries.compactMap { entry -> RelayedSession? in
            guard let fields = entry as? [String: Any],
                  let id = uuid(fields["id"]), let hostID = uuid(fields["hostId"]), let classID = uuid(fields["classId"]),
                  let host = fields["host"] as? String,
                  seen.insert(id).inserted
            else { return nil }
            // A server from before activities were listed relays sketches only.
            let activity: SessionActivity?
            if let named = fields["activity"] { activity = (named as? String).flatMap(SessionActivity.init(rawValue:)) } else { activity = .sketch }
            guard let activity else { return nil }
            return RelayedSession(id: id, sessionID: uuid(fields["session"]),
                                  name: String(((fields["name"] as? String) ?? "").prefix(200)),
                                  hostName: String(host.prefix(maxNameCharacters)), hostID: hostID, classID: SchoolClassID(classID),
                                  activity: activity)
        }
    }

    private static func uuid(_ value: Any?) -> UUID? {
        (value as? String).flatMap { $0.utf8.count == 36 ? UUID(uuidString: $0) : nil }
    }
}
