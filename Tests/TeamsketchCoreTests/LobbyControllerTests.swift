import Foundation
import LearnModel
import TeamsketchCore
import TeamsketchTestSupport
import Testing

/// What a lobby link was asked to do, in order.
fileprivate final class LinkCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [String] = []
    func add(_ call: String) { lock.withLock { calls.append(call) } }
    var all: [String] { lock.withLock { calls } }
}

@MainActor
@Suite struct LobbyControllerTests {
    fileprivate let calls = LinkCalls()
    let wording = SessionWording(letIn: "in", full: "full", wrongVersion: "version", alreadyOver: "over",
                                 lobbyFull: "busy", sentAway: "no", ended: "ended", timeUp: "time", hostLeft: "left")
    let own: [UInt8] = Array(avatarPNG(tag: 9))

    func lobby(_ members: [MemberIndex]) -> Lobby {
        Lobby(sessionID: UUID(), createdAt: WireTime(Fixture.date), params: SessionParams(name: "Zoo"),
              settings: SessionSettings(), hostPeerID: UUID(),
              members: members.map { LobbyMember(index: $0, peerID: UUID(), name: "P\($0)", role: .drawer,
                                                 state: .accepted, connected: true, hasAvatar: true) },
              started: false)
    }

    /// A host's link on port 4100 whose offer through the school server
    /// runs until it is cancelled.
    func hostLink(_ lobby: Lobby) -> LobbyLink {
        let calls = calls
        return LobbyLink(port: 4100, accept: { calls.add("accept \($0)") }, decline: { calls.add("decline \($0)") },
                         declineAllWaiting: { calls.add("decline all") }, start: { calls.add("start") },
                         lobby: { lobby }, finish: { calls.add("finish") },
                         offerThroughSchool: { endpoint, name, classID, onChange in
                             calls.add("offer \(endpoint.host) \(name) \(classID?.text ?? "-")")
                             onChange(.listed, "listed")
                             return Task {
                                 while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                                 calls.add("offer cancelled")
                             }
                         })
    }

    func memberLink() -> LobbyLink {
        let calls = calls
        return LobbyLink(port: nil, finish: { calls.add("leave") })
    }

    func controller(withdraw: @escaping @MainActor () -> Void = {}) -> LobbyController {
        let own = own
        return LobbyController(wording: wording, ownAvatar: { own }, withdraw: withdraw)
    }

    @Test func theHostIsMemberZeroAndSeesItsLobbyAtOnce() async {
        let room = controller()
        var shown: [Lobby] = []
        room.onLobby = { shown.append($0) }
        let l = lobby([0])
        await room.hosting(hostLink(l))
        #expect(room.isHost)
        #expect(room.hostPort == 4100)
        #expect(room.myIndex == 0)
        #expect(room.lobby == l)
        #expect(shown == [l])
        #expect(room.avatar(of: 0) == own)
    }

    @Test func theHostsActionsGoToTheSession() async {
        let room = controller()
        await room.hosting(hostLink(lobby([0])))
        room.accept(2)
        room.decline(3)
        room.declineAllWaiting()
        room.start()
        #expect(calls.all == ["accept 2", "decline 3", "decline all", "start"])
    }

    @Test func aPictureIsKeptOnlyIfItPassesTheChecksAndLeavesWithItsMember() async {
        let room = controller()
        await room.hosting(hostLink(lobby([0, 1, 2])))
        room.handle(.avatar(member: 1, png: Array(avatarPNG(tag: 1))))
        // Not a picture this app shows: too big to decode safely.
        room.handle(.avatar(member: 2, png: Array(avatarPNG(side: 100_000, tag: 2))))
        #expect(room.avatar(of: 1) == Array(avatarPNG(tag: 1)))
        #expect(room.avatar(of: 2) == nil)
        #expect(room.pictures.keys.sorted() == [0, 1])
        room.handle(.lobbyChanged(lobby([0, 2])))
        #expect(room.avatar(of: 1) == nil)
    }

    @Test func aMemberIsToldInTheActivitysWords() {
        let room = controller()
        var said: [String] = []
        room.onStatus = { said.append($0) }
        room.joined(memberLink())
        #expect(!room.isHost)
        #expect(room.myIndex == nil)
        room.handle(.accepted(3))
        #expect(room.myIndex == 3)
        #expect(room.avatar(of: 3) == own)
        room.handle(.declined(.full))
        #expect(room.ended == .hostEnded)
        room.handle(.ended(.timeUp))
        #expect(room.ended == .timeUp)
        room.gaveUp(saying: "broken")
        #expect(room.ended == .hostLeft)
        #expect(said == ["in", "full", "time", "broken"])
    }

    @Test func theEndStopsTheAnnouncementOnlyOnTheHost() async {
        var withdrawn = 0
        let host = controller { withdrawn += 1 }
        await host.hosting(hostLink(lobby([0])))
        host.handle(.ended(.hostEnded))
        #expect(withdrawn == 1)
        let member = controller { withdrawn += 1 }
        member.joined(memberLink())
        member.handle(.ended(.hostLeft))
        #expect(withdrawn == 1)
    }

    @Test func theOfferThroughTheSchoolRunsOnceAndStopsWithTheSession() async throws {
        var withdrawn = 0
        let room = controller { withdrawn += 1 }
        await room.hosting(hostLink(lobby([0])))
        let signIn = SchoolSignIn(server: "https://school.example:8443", accountID: "p1", name: "Mia", isTeacher: false,
                                  token: "t", expiresAt: .distantFuture)
        let classID = SchoolClassID(UUID())
        var listings: [RelayOfferStatus] = []
        room.offerThroughSchool(as: signIn, classID: classID) { listings.append($0) }
        room.offerThroughSchool(as: signIn, classID: nil) { listings.append($0) }
        try await eventually("the offer is listed") { listings == [.listed] }
        await room.finish()
        #expect(room.link == nil)
        #expect(!room.isHost)
        #expect(withdrawn == 1)
        try await eventually("the offer is cancelled") { calls.all.contains("offer cancelled") }
        #expect(calls.all.filter { $0.hasPrefix("offer school.example") } == ["offer school.example Zoo \(classID.text)"])
        #expect(calls.all.filter { $0 == "finish" }.count == 1)
        // Finishing again asks the session nothing more.
        await room.finish()
        #expect(calls.all.filter { $0 == "finish" }.count == 1)
    }

    @Test func aMemberHasNoOfferToMakeAndOnlyLeaves() async {
        let room = controller()
        room.joined(memberLink())
        room.accept(1)
        room.start()
        let signIn = SchoolSignIn(server: "https://school.example", accountID: "p1", name: "Mia", isTeacher: false,
                                  token: "t", expiresAt: .distantFuture)
        room.offerThroughSchool(as: signIn, classID: nil) { _ in Issue.record("a member offered the session") }
        await room.finish()
        #expect(calls.all == ["leave"])
    }
}
