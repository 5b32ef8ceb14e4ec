import Foundation
import Testing
@testable import LearnModel

/// A join screen asks a host for its picture (`peek`) without joining: the
/// card of a nearby session shows the host's face before anyone taps it.
@Suite struct HostPeekTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let png = [UInt8](repeating: 7, count: 1000)

    func peek(_ h: inout HostSession, _ c: ConnectionID) -> [HostSession.Effect] {
        _ = h.handle(.connectionOpened(c), now: now)
        #expect(h.admitsFrame(type: SessionMessage.peek(protocolVersion: 0).frame()[5], on: c))
        return h.handle(.received(c, .peek(protocolVersion: SessionProtocol.version)), now: now)
    }

    @Test func aPeekGetsTheHostsPictureAndNothingElse() {
        var h = HostSession(hostName: "Teacher", hostAvatar: png, params: SessionParams(name: "S"))
        let fx = peek(&h, 1)
        #expect(fx.count == 2)
        guard fx.count == 2 else { return }
        guard case .send(.avatar(let a), let to) = fx[0] else { Issue.record("no avatar sent: \(fx)"); return }
        #expect(a.member == HostSession.hostIndex && a.png == png && to == [1])
        guard case .close(1, _) = fx[1] else { Issue.record("not closed: \(fx)"); return }
        // The asker never entered the lobby, and its connection is gone.
        #expect(h.lobby.members.map(\.name) == ["Teacher"])
        #expect(!h.admitsFrame(type: SessionMessage.bye.frame()[5], on: 1))
    }

    @Test func aHostWithoutAPictureJustCloses() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        let fx = peek(&h, 1)
        #expect(fx.count == 1)
        if case .close(1, _) = fx.first {} else { Issue.record("not closed: \(fx)") }
    }

    @Test func aWaitingJoinersPictureIsNeverPeeked() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        _ = h.handle(.connectionOpened(1), now: now)
        _ = h.handle(.received(1, .hello(Hello(peerID: UUID(), name: "Stranger", avatarPNG: png, role: .drawer))), now: now)
        let fx = peek(&h, 2)
        #expect(!fx.contains { if case .send = $0 { true } else { false } })
    }

    @Test func aPeekAfterTheHelloClosesTheConnection() {
        var h = HostSession(hostName: "Teacher", hostAvatar: png, params: SessionParams(name: "S"))
        _ = h.handle(.connectionOpened(1), now: now)
        _ = h.handle(.received(1, .hello(Hello(peerID: UUID(), name: "Ben", role: .drawer))), now: now)
        let fx = h.handle(.received(1, .peek(protocolVersion: SessionProtocol.version)), now: now)
        #expect(!fx.contains { if case .send(.avatar, _) = $0 { true } else { false } })
    }

    @Test func aPeekRoundTrips() throws {
        var d = FrameDecoder()
        d.append(SessionMessage.peek(protocolVersion: 3).frame())
        #expect(try d.next() == .peek(protocolVersion: 3))
    }
}
