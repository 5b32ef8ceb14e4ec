/// Merges what every discovery mechanism reports into one list of session
/// cards, and forgets what is no longer reported. A pure value: the caller
/// feeds findings and the current time.
///
/// A card is one session id *as announced from one source address*. Anyone
/// on a classroom Wi-Fi can send an announcement with another host's session
/// id; keyed by id alone, such a copy could rename, close or redirect the
/// real card, and a forged goodbye could remove it. So a copy from another
/// address is a card of its own and never touches the real one. This device's
/// own addresses (loopback and `localHosts`) count as one source, so a
/// session hosted here and heard on several of them stays one card.
///
/// Within a card, each (mechanism, host) is tracked on its own so one path
/// going quiet doesn't drop the others. The list is capped, overall and per
/// source, so a flood of invented session ids costs a bounded amount.
public struct DiscoveryList: Sendable {
    private struct Key: Hashable {
        var mechanism: DiscoveryMechanism
        var host: String
    }

    private struct Card: Hashable {
        var sessionID: String
        var source: String
    }

    public static let maxCards = 64
    public static let maxCardsPerSource = 4
    /// The source name of every address of this device.
    public static let localSource = "local"

    private var findings: [Card: [Key: DiscoveryFinding]] = [:]
    /// First-seen order: a new card is appended, so entries a child is about
    /// to tap don't jump around.
    private var order: [Card] = []
    /// The source that announced each session id first: its card is named by
    /// the id alone, later copies by "id@source".
    private var firstSource: [String: String] = [:]
    /// How long a finding lives without being refreshed; nil means until it
    /// is removed explicitly (DNS-SD reports removals itself).
    public var lifetimes: [DiscoveryMechanism: Duration]
    /// This device's own addresses, besides loopback.
    public var localHosts: Set<String>

    public init(lifetimes: [DiscoveryMechanism: Duration] = [.beacon: BeaconConfiguration.standard.lifetime],
                localHosts: Set<String> = []) {
        self.lifetimes = lifetimes
        self.localHosts = localHosts
    }

    public var sessions: [DiscoveredSession] { order.compactMap(merged) }

    /// The card named `id` (a session id, or "id@source" for a copy).
    public func session(id: String) -> DiscoveredSession? { order.first { cardID($0) == id }.flatMap(merged) }

    public var isEmpty: Bool { order.isEmpty }

    @discardableResult
    public mutating func record(_ finding: DiscoveryFinding) -> [DiscoveryChange] {
        let card = Card(sessionID: finding.announcement.sessionID, source: source(of: finding.host))
        if findings[card] == nil {
            // This machine's own sessions count only in all, as its joiners
            // do at a host: a flood from here comes from someone who has the
            // machine already, and one machine may run a classroom's worth
            // (the class wall's bench).
            guard order.count < Self.maxCards,
                  card.source == Self.localSource
                    || order.lazy.filter({ $0.source == card.source }).count < Self.maxCardsPerSource else { return [] }
            order.append(card)
            if firstSource[card.sessionID] == nil { firstSource[card.sessionID] = card.source }
        }
        let before = merged(card)
        let key = Key(mechanism: finding.mechanism, host: finding.host)
        var entries = findings[card, default: [:]]
        // The last report from this source is the truth for name and lobby
        // state, whatever path it came by: a host that closes its lobby
        // closes it everywhere.
        for k in entries.keys where entries[k]!.seen <= finding.seen {
            entries[k]!.announcement = finding.announcement
        }
        entries[key] = finding
        findings[card] = entries
        return changes(card, before: before)
    }

    /// Forgets one mechanism's finding(s) of a session: those reported from
    /// `host` (only that source's card), or, without a host, on every card.
    @discardableResult
    public mutating func remove(sessionID: String, mechanism: DiscoveryMechanism, host: String? = nil) -> [DiscoveryChange] {
        let cards = order.filter { $0.sessionID == sessionID && (host == nil || $0.source == source(of: host!)) }
        return cards.flatMap { card -> [DiscoveryChange] in
            guard let entries = findings[card] else { return [] }
            let before = merged(card)
            store(card, entries.filter { k, _ in !(k.mechanism == mechanism && (host == nil || k.host == host)) })
            return changes(card, before: before)
        }
    }

    /// Forgets everything a mechanism reported, e.g. when the Avahi daemon
    /// goes away and its cache with it.
    @discardableResult
    public mutating func removeAll(mechanism: DiscoveryMechanism) -> [DiscoveryChange] {
        Array(Set(order.map(\.sessionID))).sorted().flatMap { remove(sessionID: $0, mechanism: mechanism) }
    }

    /// Drops findings older than their mechanism's lifetime.
    @discardableResult
    public mutating func expire(now: ContinuousClock.Instant) -> [DiscoveryChange] {
        var result: [DiscoveryChange] = []
        for card in order {
            guard let entries = findings[card] else { continue }
            let kept = entries.filter { k, f in
                guard let life = lifetimes[k.mechanism] else { return true }
                return now - f.seen <= life
            }
            if kept.count != entries.count {
                let before = merged(card)
                store(card, kept)
                result += changes(card, before: before)
            }
        }
        return result
    }

    private func source(of host: String) -> String {
        if localHosts.contains(host) || host == "localhost" || host == "::1" { return Self.localSource }
        if let ip = IPv4Address(host), ip.isLoopback { return Self.localSource }
        return host
    }

    /// The card's id, as cards and changes are named: a session's first card
    /// keeps the session id, so a list without copies looks as it always did.
    private func cardID(_ card: Card) -> String {
        firstSource[card.sessionID] == card.source ? card.sessionID : card.sessionID + "@" + card.source
    }

    private mutating func store(_ card: Card, _ entries: [Key: DiscoveryFinding]) {
        if entries.isEmpty {
            // The name is worked out before the card goes: a card that is
            // gone is still reported under the id it had.
            findings[card] = nil
            order.removeAll { $0 == card }
        } else {
            findings[card] = entries
        }
    }

    private mutating func forgetFirstSourceIfGone(_ sessionID: String) {
        if !order.contains(where: { $0.sessionID == sessionID }) { firstSource[sessionID] = nil }
    }

    private func merged(_ card: Card) -> DiscoveredSession? {
        guard let entries = findings[card]?.values, let newest = entries.max(by: Self.older) else { return nil }
        // A LAN address is preferred over loopback: it works from this machine
        // and from others, and its join code is the one to read out in class.
        let lan = entries.filter { !$0.address.isLoopback }.max(by: Self.older)
        let a = newest.announcement
        return DiscoveredSession(sessionID: card.sessionID, cardID: cardID(card), source: card.source,
                                 hostName: a.hostName, activity: a.activity,
                                 address: (lan ?? newest).address, protocolVersion: a.protocolVersion,
                                 lobbyOpen: a.lobbyOpen, classTag: a.classTag, mechanisms: Set(entries.map(\.mechanism)),
                                 lastSeen: newest.seen)
    }

    /// Ordered by time, ties broken by host and mechanism so the merged view
    /// never depends on dictionary order.
    private static func older(_ a: DiscoveryFinding, _ b: DiscoveryFinding) -> Bool {
        (a.seen, a.host, a.mechanism) < (b.seen, b.host, b.mechanism)
    }

    private mutating func changes(_ card: Card, before: DiscoveredSession?) -> [DiscoveryChange] {
        let after = merged(card)
        let id = before?.cardID ?? after?.cardID ?? cardID(card)
        let old = before?.mechanisms ?? [], new = after?.mechanisms ?? []
        var result: [DiscoveryChange] = new.subtracting(old).sorted().map { .found(sessionID: id, mechanism: $0) }
        result += old.subtracting(new).sorted().map { .lost(sessionID: id, mechanism: $0) }
        if let before, let after, result.isEmpty, before.visiblyDiffers(from: after) {
            result.append(.updated(sessionID: id))
        }
        if after == nil { forgetFirstSourceIfGone(card.sessionID) }
        return result
    }
}

private extension DiscoveredSession {
    func visiblyDiffers(from o: DiscoveredSession) -> Bool {
        hostName != o.hostName || activity != o.activity || address != o.address
            || protocolVersion != o.protocolVersion || lobbyOpen != o.lobbyOpen || classTag != o.classTag
    }
}
