import Foundation
import LearnModel
import LearnNet

/// One card on the join screen: a session found nearby, through the school
/// server, or both, with the ways to reach it in the order they are tried.
public struct SessionCard: Sendable, Hashable, Identifiable {
    public enum Source: Sendable, Hashable {
        case nearby(DiscoveryMechanism)
        case schoolServer
    }

    public var id: String
    public var sessionID: String
    public var hostName: String
    public var sign: SessionSign
    public var isCopy: Bool
    /// What saw the session, in display order.
    public var sources: [Source]
    /// Tried in this order until one answers.
    public var routes: [JoinRoute]
    /// Where the host's picture can be asked for (a nearby host only: the
    /// relay carries sessions, not peeks).
    public var pictureAddress: SessionAddress?
}

/// How the join screen's cards come from what discovery found nearby and
/// what the school server relays. A session seen both ways is one card
/// that tries the direct way first (faster, and it works without the
/// server) and the relay when the host cannot be reached — Wi-Fi that
/// keeps laptops apart lets them see a beacon yet not connect; with
/// `relayFirst` (the teacher's setting for such a network) the other way
/// round. A nearby
/// card marked as a possible copy never gets the relay's route: the
/// server vouches for the real host, so its session is a card of its own.
public enum SessionCards {
    public static func make(nearby: [DiscoveredSession], relayed: [RelayedSession], activity: SessionActivity,
                            relay endpoint: RelayEndpoint?, relayFirst: Bool = false) -> [SessionCard] {
        let relayedHere = endpoint == nil ? [] : relayed.filter { $0.activity == activity }
        // By the LAN id the host told the server; the host's name (the
        // server's, from the account) must agree too, since a classmate's
        // host could name another's LAN id to put its route on that card.
        var byID: [String: RelayedSession] = [:]
        for r in relayedHere { byID[r.sessionID.lowercasedText] = r }
        var merged = Set<UUID>()
        var cards: [SessionCard] = []
        for s in nearby where s.activity == activity && s.lobbyOpen {
            var card = SessionCard(id: s.cardID, sessionID: s.sessionID, hostName: s.hostName, sign: s.sign,
                                   isCopy: s.isCopy, sources: s.mechanismList.map(SessionCard.Source.nearby),
                                   routes: [.direct(s.address)], pictureAddress: s.isCompatible ? s.address : nil)
            if !s.isCopy, let endpoint, let r = byID[s.sessionID.lowercased()],
               DisplayName.key(r.hostName) == DisplayName.key(s.hostName) {
                card.sources.append(.schoolServer)
                let relay = JoinRoute.relay(RelayRoute(endpoint: endpoint, sessionID: r.id))
                if relayFirst { card.routes.insert(relay, at: 0) } else { card.routes.append(relay) }
                merged.insert(r.id)
            }
            cards.append(card)
        }
        if let endpoint {
            for r in relayedHere where !merged.contains(r.id) {
                let id = r.id.lowercasedText
                cards.append(SessionCard(id: "relay " + id, sessionID: r.sessionID.lowercasedText,
                                         hostName: r.hostName, sign: r.sign,
                                         isCopy: false, sources: [.schoolServer],
                                         routes: [.relay(RelayRoute(endpoint: endpoint, sessionID: r.id))],
                                         pictureAddress: nil))
            }
        }
        return cards
    }
}
