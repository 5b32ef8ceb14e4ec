import Foundation
import LearnModel
import LearnNet
import Testing
@testable import TeamsketchCore

/// The join screen's cards: nearby sessions and those the school server
/// relays, merged by session id, each with its ways in.
@Suite struct SessionCardsTests {
    let endpoint = RelayEndpoint(host: "schule.local", port: 8470, token: "t")
    let zoo = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    let farm = UUID(uuidString: "0E7B6B4A-3C9F-4E7C-9B9E-2D7A1B4C5D6E")!

    func nearby(_ id: UUID, from host: String = "10.0.0.5", activity: SessionActivity = .sketch, open: Bool = true,
                into list: inout DiscoveryList) {
        list.record(DiscoveryFinding(mechanism: .beacon,
                                     announcement: SessionAnnouncement(sessionID: id.uuidString.lowercased(), hostName: "Mia",
                                                                       activity: activity, port: 47851, lobbyOpen: open),
                                     host: host, seen: .now))
    }

    func relayed(_ id: UUID, activity: SessionActivity = .sketch) -> RelayedSession {
        RelayedSession(id: id, name: "Zoo", hostName: "Mia", hostID: UUID(), classID: SchoolClassID(UUID()), activity: activity)
    }

    @Test func aSessionSeenBothWaysIsOneCardThatTriesTheDirectWayFirst() {
        var list = DiscoveryList()
        nearby(zoo, into: &list)
        let cards = SessionCards.make(nearby: list.sessions, relayed: [relayed(zoo), relayed(farm)], activity: .sketch,
                                      relay: endpoint)
        #expect(cards.count == 2)
        #expect(cards[0].routes == [.direct(SessionAddress(host: "10.0.0.5", port: 47851)),
                                    .relay(RelayRoute(endpoint: endpoint, sessionID: zoo))])
        #expect(cards[0].sources == [.nearby(.beacon), .schoolServer])
        #expect(cards[0].pictureAddress == SessionAddress(host: "10.0.0.5", port: 47851))
        // Only the server knows the farm: one way in, no picture to peek at.
        #expect(cards[1].routes == [.relay(RelayRoute(endpoint: endpoint, sessionID: farm))])
        #expect(cards[1].sources == [.schoolServer] && cards[1].pictureAddress == nil)
        #expect(cards[1].sign == SessionSign(sessionID: farm.uuidString.lowercased()))
        #expect(cards[1].sessionID == farm.uuidString.lowercased() && !cards[1].isCopy)

        // The teacher's setting for a network that only seems to connect.
        let first = SessionCards.make(nearby: list.sessions, relayed: [relayed(zoo)], activity: .sketch, relay: endpoint,
                                      relayFirst: true)
        #expect(first[0].routes.first == .relay(RelayRoute(endpoint: endpoint, sessionID: zoo)) && first[0].routes.count == 2)
    }

    @Test func theServerRelaysUnderAnIdOfItsOwnAndTheCardsMeetByTheLANIdAndTheHost() {
        var list = DiscoveryList()
        nearby(zoo, into: &list)
        let relayID = UUID()
        let mias = RelayedSession(id: relayID, sessionID: zoo, name: "Zoo", hostName: "mia ", hostID: UUID(),
                                  classID: SchoolClassID(UUID()), activity: .sketch)
        let cards = SessionCards.make(nearby: list.sessions, relayed: [mias], activity: .sketch, relay: endpoint)
        #expect(cards.count == 1)
        #expect(cards[0].routes.last == .relay(RelayRoute(endpoint: endpoint, sessionID: relayID)))
        // A classmate's host naming Mia's LAN id is not Mia's session: a card of its own.
        let oles = RelayedSession(id: UUID(), sessionID: zoo, name: "Zoo", hostName: "Ole", hostID: UUID(),
                                  classID: SchoolClassID(UUID()), activity: .sketch)
        let apart = SessionCards.make(nearby: list.sessions, relayed: [oles], activity: .sketch, relay: endpoint)
        #expect(apart.count == 2)
        #expect(apart[0].routes == [.direct(SessionAddress(host: "10.0.0.5", port: 47851))])
        // Only through the server: the sign is the one the host's lobby shows.
        let alone = SessionCards.make(nearby: [], relayed: [mias], activity: .sketch, relay: endpoint)
        #expect(alone[0].sign == SessionSign(sessionID: zoo.uuidString.lowercased()))
        #expect(alone[0].routes == [.relay(RelayRoute(endpoint: endpoint, sessionID: relayID))])
    }

    @Test func aCopyNearbyNeverGetsTheServersRouteTheRealSessionIsACardOfItsOwn() {
        var list = DiscoveryList()
        nearby(zoo, from: "10.0.0.5", into: &list)
        nearby(zoo, from: "10.0.0.66", into: &list)
        let cards = SessionCards.make(nearby: list.sessions, relayed: [relayed(zoo)], activity: .sketch, relay: endpoint)
        #expect(cards.count == 2)
        #expect(cards[1].isCopy && cards[1].routes == [.direct(SessionAddress(host: "10.0.0.66", port: 47851))])
        #expect(cards[0].routes.contains(.relay(RelayRoute(endpoint: endpoint, sessionID: zoo))))
    }

    @Test func onlyTheScreensActivityAndNoServerWithoutASignIn() {
        var list = DiscoveryList()
        nearby(zoo, activity: .wordpost, into: &list)
        nearby(farm, from: "10.0.0.7", open: false, into: &list)
        #expect(SessionCards.make(nearby: list.sessions, relayed: [relayed(farm, activity: .wordpost)], activity: .sketch,
                                  relay: endpoint).isEmpty)
        let games = SessionCards.make(nearby: list.sessions, relayed: [relayed(farm, activity: .wordpost)],
                                      activity: .wordpost, relay: endpoint)
        #expect(games.map(\.sessionID) == [zoo, farm].map { $0.uuidString.lowercased() })
        #expect(SessionCards.make(nearby: [], relayed: [relayed(farm)], activity: .sketch, relay: nil).isEmpty)
    }

    @Test func theServersListIsReadAsHostileInput() throws {
        let id = zoo.uuidString.lowercased(), other = UUID().uuidString.lowercased()
        let good: [String: Any] = ["id": id, "name": "Zoo", "host": String(repeating: "M", count: 500),
                                   "hostId": other, "classId": other, "activity": "wordpost"]
        let entries: [Any] = [good, good, ["id": "nope", "host": "x", "hostId": other, "classId": other], 7,
                              ["id": other, "host": "Ole", "hostId": other, "classId": other],
                              ["id": UUID().uuidString, "host": "Ben", "hostId": other, "classId": other, "activity": "NO WAY"]]
        let read = try RelayListing.decode(JSONSerialization.data(withJSONObject: entries))
        // The repeated id counts once, broken entries are left out, a long
        // name is cut, and a server that names no activity relays sketches.
        #expect(read.map(\.id.uuidString) == [zoo.uuidString, other.uppercased()])
        #expect(read[0].activity == .wordpost && read[0].hostName.count == 60)
        #expect(read[1].activity == .sketch)
        // Without a LAN id (an older host or server) the relay id stands in.
        #expect(read[0].sessionID == zoo)
        let lan = UUID()
        let named = try RelayListing.decode(JSONSerialization.data(withJSONObject: [
            ["id": other, "session": lan.uuidString.lowercased(), "host": "Ole", "hostId": other, "classId": other],
            ["id": id, "session": "not an id", "host": "Mia", "hostId": other, "classId": other]]))
        #expect(named.map(\.sessionID) == [lan, zoo])
        #expect(throws: RelayListingError.malformed) { try RelayListing.decode(Data("{\"id\":1}".utf8)) }
        #expect(throws: RelayListingError.tooBig) { try RelayListing.decode(Data(count: RelayListing.maxBytes + 1)) }
        let many = try JSONSerialization.data(withJSONObject: Array(repeating: good, count: RelayListing.maxSessions + 1))
        #expect(throws: RelayListingError.tooBig) { try RelayListing.decode(many) }
    }

    @Test func theRelayIsReachedAsTheSchoolLinkReachesTheServer() {
        func signIn(_ server: String) -> SchoolSignIn {
            SchoolSignIn(server: server, trustedCertificates: "/etc/schule-ca.pem", accountID: "a", name: "Mia",
                         isTeacher: false, token: "tok", expiresAt: .distantFuture)
        }
        #expect(signIn("https://schule.local:8470").relayEndpoint
                == RelayEndpoint(host: "schule.local", port: 8470, token: "tok", secure: true,
                                 trustedCertificates: "/etc/schule-ca.pem"))
        #expect(signIn("http://10.0.0.5:9000").relayEndpoint?.secure == false)
        #expect(signIn("http://10.0.0.5:9000").relayEndpoint?.port == 9000)
        #expect(signIn("not a server").relayEndpoint == nil)
    }
}

@Suite struct RelayOfferPlanTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    func signIn(teacher: Bool, classID: SchoolClassID? = "c1", server: String = "https://schule.local",
                expires: TimeInterval = 3600) -> SchoolSignIn {
        SchoolSignIn(server: server, accountID: "a", name: "X", isTeacher: teacher, token: "t",
                     expiresAt: now.addingTimeInterval(expires), classID: classID)
    }

    @Test func whoOffersForWhichClass() {
        let a = RelayOfferPlan.ClassChoice(id: SchoolClassID(UUID()), name: "3a"), b = RelayOfferPlan.ClassChoice(id: SchoolClassID(UUID()), name: "2b")
        #expect(RelayOfferPlan.make(signIn: nil, teacherClasses: nil, now: now) == .none)
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: false), teacherClasses: nil, now: now) == .offer(classID: nil))
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: false, classID: nil), teacherClasses: nil, now: now) == .none)
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: false, expires: -1), teacherClasses: nil, now: now) == .none)
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: true), teacherClasses: nil, now: now) == .none)
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: true), teacherClasses: [], now: now) == .none)
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: true), teacherClasses: [a], now: now) == .offer(classID: a.id))
        #expect(RelayOfferPlan.make(signIn: signIn(teacher: true), teacherClasses: [a, b], now: now) == .chooseClass([b, a]))
    }
}
