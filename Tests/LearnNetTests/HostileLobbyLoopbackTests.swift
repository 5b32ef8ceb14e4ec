import Foundation
import NIOCore
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// Strangers on the classroom network who connect and never get accepted:
/// they must not cost the real members their place or the host its memory.
@Suite(.serialized) struct HostileLobbyLoopbackTests {
    @Test func idleStrangersWithBigAvatarsDoNotLockOutARealMember() async throws {
        let hostEvents = EventLog()
        let host = try await Loopback.host(acceptAll: false, events: hostEvents, maxPerAddress: 4)
        let avatar = [UInt8](repeating: 0x42, count: SessionLimits.maxAvatarBytes)
        var strangers: [RawPeer] = []
        // 150 connections from five machines (127.0.0.2–6): every fifth says
        // nothing, the others say hello with the largest avatar; none reads.
        for i in 0..<150 {
            let source = "127.0.0.\(2 + i % 5)"
            guard let peer = try? await RawPeer.connect(port: host.port, source: source, autoRead: false) else { continue }
            strangers.append(peer)
            if i % 5 != 4 {
                try? await peer.send(.hello(Hello(peerID: UUID(), name: "Anna", avatarPNG: avatar, role: .drawer)))
            }
        }
        // The real member (from 127.0.0.1) joins, is seen and accepted.
        let real = try await Loopback.join(host, "Real")
        try await eventually("the real member waits") { await host.lobby().members.contains { $0.name == "Real" } }
        let index = try #require(await host.lobby().members.first { $0.name == "Real" }?.index)
        host.accept(index)
        try await eventually("the real member is accepted") { await real.state().phase == .accepted }

        // At most four connections from each stranger's machine were kept.
        let stats = await host.statistics()
        #expect(stats.connections <= 5 * 4 + 1)
        #expect(await host.lobby().members.count <= 1 + 5 * 4 + 1)
        // Waiting joiners' avatars went to nobody, so no queue grew.
        #expect(stats.peakQueuedBytes < 1 << 20)
        #expect(stats.slowDrops == 0)
        #expect(await real.state().phase == .accepted)
        for s in strangers { await s.close() }
        await host.end()
    }

    @Test func aConnectionThatNeverSaysHelloIsClosed() async throws {
        var options = TransportOptions()
        options.helloTimeout = .milliseconds(300)
        options.pingInterval = .milliseconds(100)
        let host = try await Loopback.host(options: options)
        let silent = try await RawPeer.connect(port: host.port)
        try await eventually("the silent connection is closed") { !silent.isOpen }
        #expect(await host.statistics().connections == 0)
        await host.end()
    }

    @Test func aFrameOtherThanHelloFromAStrangerClosesItUnread() async throws {
        let hostEvents = EventLog()
        let host = try await Loopback.host(events: hostEvents)
        let raw = try await RawPeer.connect(port: host.port)
        // A stroke frame whose payload would not even decode: it is never read.
        try await raw.send([0, 0, 0, 3, 1, 16, 0x80])
        try await eventually("closed") { !raw.isOpen }
        // The host tells of the drop just after closing.
        try await eventually("the host told why") {
            hostEvents.contains {
                if case .connectionDropped(nil, let reason) = $0 { reason == "a frame of type 16 before hello" } else { false }
            }
        }
        await host.end()
    }

    @Test func moreConnectionsFromOneAddressThanTheCapAreClosedAtOnce() async throws {
        let host = try await Loopback.host(maxPerAddress: 2)
        let a = try await RawPeer.connect(port: host.port, source: "127.0.0.7")
        let b = try await RawPeer.connect(port: host.port, source: "127.0.0.7")
        let c = try await RawPeer.connect(port: host.port, source: "127.0.0.7")
        try await eventually("the third is closed") { !c.isOpen }
        #expect(a.isOpen && b.isOpen)
        #expect(await host.statistics().refusedConnections == 1)
        // Another machine still gets in.
        // A connect returns before the host has taken the connection in:
        // each is waited for on the host's side, or a busy machine could
        // count the close below before the arrival.
        let d = try await RawPeer.connect(port: host.port, source: "127.0.0.8")
        try await eventually("the other machine's is taken in") { await host.statistics().connections == 3 }
        #expect(d.isOpen)
        // Once one closes, its machine has a place again.
        await a.close()
        try await eventually("the host saw it go") { await host.statistics().connections == 2 }
        let e = try await RawPeer.connect(port: host.port, source: "127.0.0.7")
        try await eventually("the place is taken again") { await host.statistics().connections == 3 }
        #expect(e.isOpen)
        #expect(await host.statistics().refusedConnections == 1)
        for p in [b, d, e] { await p.close() }
        await host.end()
    }

    @Test func silentStrangersFillingEveryPlaceMakeRoomForSomeoneWhoJoins() async throws {
        var options = TransportOptions()
        options.maxConnections = 8
        let host = try await Loopback.host(acceptAll: false, options: options, maxPerAddress: 4)
        var silent: [RawPeer] = []
        for i in 0..<8 { silent.append(try await RawPeer.connect(port: host.port, source: "127.0.0.\(10 + i % 2)")) }
        try await eventually("all places taken") { await host.statistics().connections == 8 }
        // Long before their hello timeout, a pupil's app joins and is let in.
        let real = try await Loopback.join(host, "Real")
        try await eventually(timeout: .seconds(5), "the real member waits") {
            await host.lobby().members.contains { $0.name == "Real" }
        }
        let index = try #require(await host.lobby().members.first { $0.name == "Real" }?.index)
        host.accept(index)
        try await eventually("the real member is accepted") { await real.state().phase == .accepted }
        // The oldest silent stranger gave up its place; the cap held.
        try await eventually("the oldest stranger is gone") { !silent[0].isOpen }
        #expect(await host.statistics().connections == 8)
        for s in silent { await s.close() }
        await host.end()
    }
}

/// Strangers saying hello from many machines: only a few wait, one per
/// machine, and the teacher sends them all away in one go.
@Suite(.serialized) struct WaitingJoinerFloodLoopbackTests {
    @Test func aHelloFloodFromSixteenMachinesLeavesTwelveWaitingAndOneClickClearsThem() async throws {
        let host = try await Loopback.host(acceptAll: false, maxPerAddress: 4)
        var strangers: [RawPeer] = []
        // Two hellos from each of 16 machines (127.0.0.2–17).
        for i in 0..<32 {
            let peer = try await RawPeer.connect(port: host.port, source: "127.0.0.\(2 + i % 16)")
            strangers.append(peer)
            try await peer.send(.hello(Hello(peerID: UUID(), name: "Stranger", role: .drawer)))
        }
        try await eventually("the flood is handled") { strangers.filter(\.isOpen).count == 12 }
        #expect(await host.lobby().members.filter { $0.state == .pending }.count == 12)
        // Only one of each machine's pair waits.
        let sources = Set(strangers.filter(\.isOpen).compactMap { $0.channel.localAddress?.ipAddress })
        #expect(sources.count == 12)

        // A pupil's app now is told the lobby is full, in words it can show.
        let events = EventLog()
        let pupil = try await Loopback.join(host, "Pupil", events: events)
        try await eventually("told it is full") { await pupil.state().phase == .declined(.lobbyFull) }
        #expect(events.contains(.declined(.lobbyFull)))

        // The teacher clears the flood in one click; the pupil tries again.
        host.declineAllWaiting()
        try await eventually("everyone waiting sent away") { strangers.allSatisfy { !$0.isOpen } }
        #expect(await host.lobby().members.count == 1)
        let again = try await Loopback.join(host, "Pupil")
        try await eventually("the pupil waits") { await host.lobby().members.contains { $0.name == "Pupil" } }
        let index = try #require(await host.lobby().members.first { $0.name == "Pupil" }?.index)
        host.accept(index)
        try await eventually("the pupil is in") { await again.state().phase == .accepted }
        await host.end()
    }
}
