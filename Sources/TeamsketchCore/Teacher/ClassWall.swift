import Foundation
import LearnModel

/// Which groups the class wall watches and how each is doing. The wall is
/// the teacher's projector view: every team sketch running nearby, live,
/// side by side. This decides from the discovery cards alone, so it needs no
/// window and no socket.
///
/// A group is a sketch session announced from some address. The wall keeps
/// the order in which groups were first seen (a projected grid that
/// reshuffles loses the class's eyes), never joins a copy of a session
/// announced from a second address (it could be anyone's), nor an
/// incompatible one, and holds at most `maxGroups`: a wall of more cells
/// than a projector can show helps nobody.
public struct ClassWall: Sendable, Hashable {
    public static let maxGroups = 12

    public enum Status: Hashable, Sendable {
        /// Connecting to the host.
        case connecting
        /// Connected; the host has not let the teacher in yet.
        case waiting
        /// Let in: the group's sheet is live on the wall.
        case watching
        /// The connection broke; the client is rejoining by itself.
        case reconnecting
        /// The host said no (or its lobby was full).
        case declined
        /// The session is over; the last sheet stays on the wall.
        case ended
        /// The host could not be reached at all.
        case unreachable

        /// A finished group leaves the wall when discovery no longer sees it.
        public var isOver: Bool { self == .declined || self == .ended || self == .unreachable }
    }

    public struct Group: Hashable, Sendable, Identifiable {
        /// The discovery card (session id, or session id@address for a copy).
        public var id: String
        public var sessionID: String
        public var hostName: String
        public var address: SessionAddress
        public var classTag: ClassTag?
        public var status: Status

        public var sign: SessionSign { SessionSign(sessionID: sessionID) }
    }

    public private(set) var groups: [Group] = []

    public init() {}

    /// Discovery's current cards. Returns the groups that are new on the
    /// wall, to be joined. Groups discovery no longer lists stay while they
    /// are live (a beacon can be missed; the connection tells the truth) and
    /// go once they are over.
    ///
    /// `classes` are the teacher's classes, when the school server told
    /// them: a group whose host announces another class is the class next
    /// door's and never on this wall (and leaves it, if it came before the
    /// classes were known). A group announcing no class — a laptop nobody
    /// signed in on — is shown: it is most likely in this room.
    @discardableResult
    public mutating func found(_ sessions: [DiscoveredSession], classes: Set<ClassTag>? = nil) -> [Group] {
        let listed = Set(sessions.map(\.id))
        groups.removeAll { !listed.contains($0.id) && $0.status.isOver }
        groups.removeAll { !Self.belongs($0.classTag, to: classes) }
        var added: [Group] = []
        for s in sessions where Self.isWatchable(s) && Self.belongs(s.classTag, to: classes) {
            if let i = groups.firstIndex(where: { $0.id == s.id }) {
                groups[i].hostName = s.hostName
                continue
            }
            guard groups.count < Self.maxGroups else { break }
            let g = Group(id: s.id, sessionID: s.sessionID, hostName: s.hostName, address: s.address,
                          classTag: s.classTag, status: .connecting)
            groups.append(g)
            added.append(g)
        }
        return added
    }

    /// Only team sketches this app can read, announced by their own host.
    public static func isWatchable(_ s: DiscoveredSession) -> Bool {
        s.activity == .sketch && s.isCompatible && !s.isCopy
    }

    private static func belongs(_ tag: ClassTag?, to classes: Set<ClassTag>?) -> Bool {
        guard let classes, let tag else { return true }
        return classes.contains(tag)
    }

    public func group(_ id: String) -> Group? { groups.first { $0.id == id } }

    /// What the wall proves to a group's host so it is let in at once: the
    /// key of the class the group announces (`keys`: the teacher's classes'
    /// keys, by their tags). A group announcing no class, or another, gets
    /// no proof and waits for its host as before.
    public static func proof(for group: Group, keys: [ClassTag: [UInt8]], watcher: UUID) -> [UInt8]? {
        guard let tag = group.classTag, let key = keys[tag], let session = UUID(uuidString: group.sessionID) else { return nil }
        return WatchProof.make(key: key, session: session, watcher: watcher,
                               dialled: WatchProof.addressText(host: group.address.host, port: group.address.port))
    }

    /// What a group's session said, as the wall's status for it.
    public mutating func apply(_ event: SessionEvent, to id: String) {
        guard let i = groups.firstIndex(where: { $0.id == id }) else { return }
        groups[i].status = Self.status(after: event, from: groups[i].status)
    }

    /// The host was not reachable when the wall tried to join.
    public mutating func unreachable(_ id: String) {
        guard let i = groups.firstIndex(where: { $0.id == id }) else { return }
        groups[i].status = .unreachable
    }

    /// The status a session event leads to. Events that say nothing about
    /// being in (strokes, lobby changes, pings) keep it, except that
    /// anything from the host after a broken connection means it is back.
    public static func status(after event: SessionEvent, from status: Status) -> Status {
        guard !status.isOver else { return status }
        switch event {
        case .lobbyChanged:
            // The lobby comes before the host's answer, also on a rejoin.
            return status == .connecting ? .waiting : status
        case .accepted, .started, .documentReset:
            return .watching
        case .declined:
            return .declined
        case .ended:
            return .ended
        case .connectionLost:
            return .reconnecting
        case .strokeBegan, .strokeExtended, .opApplied:
            return status == .reconnecting ? .watching : status
        case .avatar, .memberLeft, .connectionDropped, .refused, .opRefused, .ownStrokeRefused:
            return status
        }
    }
}
