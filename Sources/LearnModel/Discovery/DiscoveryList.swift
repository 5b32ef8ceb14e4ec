/// Merges what every discovery mechanism reports into one list of sessions,
/// keyed by session id, and forgets what is no longer reported. A pure value:
/// the caller feeds findings and the current time.
///
/// Each mechanism can see a session at several addresses (a beacon heard via
/// multicast from 192.168.1.5 and via loopback broadcast from 127.0.0.1; an
/// mDNS service on two interfaces); every (mechanism, host) is tracked on
/// its own so one path going quiet doesn't drop the others.
public struct DiscoveryList: Sendable {
    private struct Key: Hashable {
        var mechanism: DiscoveryMechanism
        var host: String
    }

    private var findings: [String: [Key: DiscoveryFinding]] = [:]
    /// First-seen order: a new session is appended, so entries a child is
    /// about to tap don't jump around.
    private var order: [String] = []
    /// How long a finding lives without being refreshed; nil means until it
    /// is removed explicitly (DNS-SD reports removals itself).
    public var lifetimes: [DiscoveryMechanism: Duration]

    public init(lifetimes: [DiscoveryMechanism: Duration] = [.beacon: BeaconConfiguration.standard.lifetime]) {
        self.lifetimes = lifetimes
    }

    public var sessions: [DiscoveredSession] { order.compactMap(merged) }

    public func session(id: String) -> DiscoveredSession? { merged(id) }

    public var isEmpty: Bool { order.isEmpty }

    @discardableResult
    public mutating func record(_ finding: DiscoveryFinding) -> [DiscoveryChange] {
        let id = finding.announcement.sessionID
        let before = merged(id)
        if findings[id] == nil { order.append(id) }
        let key = Key(mechanism: finding.mechanism, host: finding.host)
        var entries = findings[id, default: [:]]
        // The last report is the truth for name and lobby state, whatever
        // path it came by: a host that closes its lobby closes it everywhere.
        for k in entries.keys where entries[k]!.seen <= finding.seen {
            entries[k]!.announcement = finding.announcement
        }
        entries[key] = finding
        findings[id] = entries
        return changes(id, before: before)
    }

    /// Forgets one mechanism's finding(s) of a session: at one host, or all.
    @discardableResult
    public mutating func remove(sessionID: String, mechanism: DiscoveryMechanism, host: String? = nil) -> [DiscoveryChange] {
        guard let entries = findings[sessionID] else { return [] }
        let before = merged(sessionID)
        store(sessionID, entries.filter { k, _ in !(k.mechanism == mechanism && (host == nil || k.host == host)) })
        return changes(sessionID, before: before)
    }

    /// Forgets everything a mechanism reported, e.g. when the Avahi daemon
    /// goes away and its cache with it.
    @discardableResult
    public mutating func removeAll(mechanism: DiscoveryMechanism) -> [DiscoveryChange] {
        order.flatMap { remove(sessionID: $0, mechanism: mechanism) }
    }

    /// Drops findings older than their mechanism's lifetime.
    @discardableResult
    public mutating func expire(now: ContinuousClock.Instant) -> [DiscoveryChange] {
        var result: [DiscoveryChange] = []
        for id in order {
            guard let entries = findings[id] else { continue }
            let kept = entries.filter { k, f in
                guard let life = lifetimes[k.mechanism] else { return true }
                return now - f.seen <= life
            }
            if kept.count != entries.count {
                let before = merged(id)
                store(id, kept)
                result += changes(id, before: before)
            }
        }
        return result
    }

    private mutating func store(_ id: String, _ entries: [Key: DiscoveryFinding]) {
        if entries.isEmpty {
            findings[id] = nil
            order.removeAll { $0 == id }
        } else {
            findings[id] = entries
        }
    }

    private func merged(_ id: String) -> DiscoveredSession? {
        guard let entries = findings[id]?.values, let newest = entries.max(by: Self.older) else { return nil }
        // A LAN address is preferred over loopback: it works from this machine
        // and from others, and its join code is the one to read out in class.
        let lan = entries.filter { !$0.address.isLoopback }.max(by: Self.older)
        let a = newest.announcement
        return DiscoveredSession(sessionID: id, hostName: a.hostName, activity: a.activity,
                                 address: (lan ?? newest).address, protocolVersion: a.protocolVersion,
                                 lobbyOpen: a.lobbyOpen, mechanisms: Set(entries.map(\.mechanism)),
                                 lastSeen: newest.seen)
    }

    /// Ordered by time, ties broken by host and mechanism so the merged view
    /// never depends on dictionary order.
    private static func older(_ a: DiscoveryFinding, _ b: DiscoveryFinding) -> Bool {
        (a.seen, a.host, a.mechanism) < (b.seen, b.host, b.mechanism)
    }

    private func changes(_ id: String, before: DiscoveredSession?) -> [DiscoveryChange] {
        let after = merged(id)
        let old = before?.mechanisms ?? [], new = after?.mechanisms ?? []
        var result: [DiscoveryChange] = new.subtracting(old).sorted().map { .found(sessionID: id, mechanism: $0) }
        result += old.subtracting(new).sorted().map { .lost(sessionID: id, mechanism: $0) }
        if let before, let after, result.isEmpty, before.visiblyDiffers(from: after) {
            result.append(.updated(sessionID: id))
        }
        return result
    }
}

private extension DiscoveredSession {
    func visiblyDiffers(from o: DiscoveredSession) -> Bool {
        hostName != o.hostName || activity != o.activity || address != o.address
            || protocolVersion != o.protocolVersion || lobbyOpen != o.lobbyOpen
    }
}
