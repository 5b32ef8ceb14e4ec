import Foundation
import Testing
@testable import LearnModel

/// What the host keeps of, and tells about, people who are not (or no
/// longer) in: the rules that stop strangers from filling the lobby.
@Suite struct HostLobbyHygieneTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let png = [UInt8](repeating: 7, count: 1000)

    func host() -> HostSession { HostSession(hostName: "Teacher", params: SessionParams(name: "S")) }

    func hello(_ name: String, role: PeerRole = .drawer, avatar: [UInt8]? = nil) -> SessionMessage {
        .hello(Hello(peerID: UUID(), name: name, avatarPNG: avatar, role: role))
    }

    @discardableResult
    func join(_ h: inout HostSession, _ c: ConnectionID, _ name: String, role: PeerRole = .drawer,
              avatar: [UInt8]? = nil) -> [HostSession.Effect] {
        _ = h.handle(.connectionOpened(c), now: now)
        return h.handle(.received(c, hello(name, role: role, avatar: avatar)), now: now)
    }

    func avatarTargets(_ fx: [HostSession.Effect]) -> [ConnectionID] {
        fx.flatMap { e -> [ConnectionID] in
            if case .send(.avatar, let to) = e { to } else { [] }
        }
    }

    func index(of name: String, in h: HostSession) -> MemberIndex? { h.lobby.members.first { $0.name == name }?.index }

    @Test func aWaitingJoinersAvatarGoesToNobodyButTheHost() {
        var h = host()
        join(&h, 1, "Ben")
        h.handle(.accept(1), now: now)
        let fx = join(&h, 2, "Stranger", avatar: png)
        #expect(avatarTargets(fx).isEmpty)
        // The host itself keeps it, to show it in its lobby.
        #expect(h.members.first { $0.name == "Stranger" }?.avatar == png)
        // Nor is it sent to those who come after.
        #expect(avatarTargets(join(&h, 3, "Cleo")).isEmpty)
    }

    @Test func anAcceptedMembersAvatarGoesToTheOthersAndToNewcomers() {
        var h = host()
        join(&h, 1, "Ben")
        join(&h, 2, "Anna", avatar: png)
        let fx = h.handle(.accept(2), now: now)
        #expect(avatarTargets(fx) == [1])
        #expect(avatarTargets(join(&h, 3, "Cleo")) == [3])
    }

    @Test func aJoinerWhoGivesUpWaitingIsForgotten() {
        var h = host()
        join(&h, 1, "Stranger", avatar: png)
        _ = h.handle(.connectionClosed(1), now: now)
        #expect(h.members.count == 1)
        #expect(h.lobby.members.map(\.name) == ["Teacher"])
        // Its name is free again, and a newcomer gets a fresh index.
        join(&h, 2, "Stranger")
        #expect(h.lobby.members.map(\.name) == ["Teacher", "Stranger"])
        #expect(index(of: "Stranger", in: h) == 2)
    }

    @Test func aDeclinedJoinerIsForgotten() {
        var h = host()
        join(&h, 1, "Stranger", avatar: png)
        _ = h.handle(.decline(1), now: now)
        #expect(h.members.count == 1)
    }

    @Test func anAcceptedMemberWhoSaysByeIsForgottenButOneWhoDropsMayComeBack() {
        var h = host()
        join(&h, 1, "Anna", avatar: png)
        join(&h, 2, "Ben")
        h.handle(.accept(1), now: now)
        h.handle(.accept(2), now: now)
        let fx = h.handle(.received(1, .bye), now: now)
        #expect(fx.contains(.send(.memberLeft(MemberLeft(member: 1)), to: [2])))
        #expect(h.lobby.member(1) == nil)
        _ = h.handle(.connectionClosed(2), now: now)
        #expect(h.lobby.member(2)?.connected == false)
    }

    @Test func aFullLobbyCountsOnlyThoseStillThere() {
        var h = host()
        for c in 1...ConnectionID(HostSession.maxMembers + 50) {
            join(&h, c, "S\(c)")
            _ = h.handle(.connectionClosed(c), now: now)
        }
        #expect(h.members.count == 1)
        let fx = join(&h, 9999, "Real")
        #expect(!fx.contains { if case .send(.declined, _) = $0 { true } else { false } })
    }

    @Test func onlyAHelloIsReadFromAConnectionThatHasNotSaidHello() {
        var h = host()
        _ = h.handle(.connectionOpened(1), now: now)
        #expect(h.admitsFrame(type: 1, on: 1))
        for type: UInt8 in [2, 3, 9, 11, 16, 17, 48, 200] { #expect(!h.admitsFrame(type: type, on: 1), "type \(type)") }
        #expect(!h.admitsFrame(type: 1, on: 42))  // not a connection at all
        join(&h, 2, "Anna")
        #expect(h.admitsFrame(type: 9, on: 2))
    }

    @Test func anythingButHelloFirstClosesTheConnection() {
        var h = host()
        _ = h.handle(.connectionOpened(1), now: now)
        let fx = h.handle(.received(1, .ping(5)), now: now)
        #expect(fx == [.close(1, reason: "expected hello first")])
        #expect(h.connections[1] == nil)
    }
}
