import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import LearnModel
@testable import LearnNet

/// Real UDP on loopback, all in one process. Each test takes a fresh port
/// from the kernel so parallel test runs (and a real app on 47850) don't
/// hear each other. Timeouts are generous and only guard against hangs.
@Suite struct DiscoveryBeaconLoopbackTests {
    let anna = SessionAnnouncement(sessionID: "beacon-test-anna", hostName: "Anna", activity: .sketch, port: 47851)

    @Test func twoListenersOnOnePortBothFindTheAnnouncer() async throws {
        let a = Collector(), b = Collector()
        // Sharing asked for: no other listener of these tests shares a
        // port picked by the kernel, so this one's stays the pair's.
        let first = BeaconListener(configuration: .loopback(port: 0, sharesPort: true), onEvent: a.add)
        #expect(await first.start() == .running)
        let port = try #require(first.boundPort)
        let config = BeaconConfiguration.loopback(port: port)
        let second = BeaconListener(configuration: config, onEvent: b.add)
        #expect(await second.start() == .running)
        let statuses = StatusLog()
        let announcer = BeaconAnnouncer(configuration: config, onStatus: statuses.add)
        announcer.announce(anna)
        defer { Task { await announcer.shutdown(); await first.stop(); await second.stop() } }

        for c in [a, b] {
            try await waitUntil { c.list().session(id: anna.sessionID) != nil }
            let s = try #require(c.list().session(id: anna.sessionID))
            #expect(s.mechanisms == [.beacon])
            #expect(s.address == SessionAddress(host: "127.0.0.1", port: 47851))
            #expect(s.hostName == "Anna" && s.activity == .sketch && s.lobbyOpen)
            #expect(s.joinCode?.digits == "000010")
        }
        try await waitUntil { statuses.last == .running }
    }

    @Test func aStoppedAnnouncerExpires() async throws {
        let c = Collector()
        let listener = BeaconListener(configuration: .loopback(port: 0), onEvent: c.add)
        await listener.start()
        let config = BeaconConfiguration.loopback(port: try #require(listener.boundPort), interval: .milliseconds(100))
        c.lifetime = config.lifetime
        let announcer = BeaconAnnouncer(configuration: config)
        defer { Task { await announcer.shutdown(); await listener.stop() } }

        announcer.announce(anna)
        try await waitUntil { c.list().session(id: anna.sessionID) != nil }
        announcer.stop()
        try await waitUntil { c.expireNow().session(id: anna.sessionID) == nil }
    }

    @Test func aClosedLobbyIsSeenAndWithdrawSaysGoodbye() async throws {
        let c = Collector()
        let listener = BeaconListener(configuration: .loopback(port: 0), onEvent: c.add)
        await listener.start()
        let announcer = BeaconAnnouncer(configuration: .loopback(port: try #require(listener.boundPort)))
        defer { Task { await announcer.shutdown(); await listener.stop() } }

        announcer.announce(anna)
        try await waitUntil { c.list().session(id: anna.sessionID)?.lobbyOpen == true }
        var closed = anna
        closed.lobbyOpen = false
        announcer.announce(closed)
        try await waitUntil { c.list().session(id: anna.sessionID)?.lobbyOpen == false }
        // The interval is 2 s, so without the goodbye the session would stay ~7 s.
        announcer.withdraw()
        try await waitUntil { c.list().session(id: anna.sessionID) == nil }
    }

    @Test func garbageIsCountedAndIgnored() async throws {
        let c = Collector()
        let listener = BeaconListener(configuration: .loopback(port: 0), onEvent: c.add)
        await listener.start()
        let port = try #require(listener.boundPort)
        let sender = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        defer { Task { try? await sender.close(); await listener.stop() } }
        let target = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        var badVersion = BeaconPacket(announcement: anna).encoded()
        badVersion[4] = 7
        for bytes in [Array("hello".utf8), badVersion, [UInt8](repeating: 0x54, count: 600)] {
            try await sender.writeAndFlush(AddressedEnvelope(remoteAddress: target, data: ByteBuffer(bytes: bytes)))
        }
        try await sender.writeAndFlush(AddressedEnvelope(remoteAddress: target,
                                                         data: ByteBuffer(bytes: BeaconPacket(announcement: anna).encoded())))
        try await waitUntil { c.list().session(id: anna.sessionID) != nil }
        #expect(listener.ignoredPackets == 3)
        #expect(c.events.count == 1)
    }

    @Test func aPortHeldWithoutReuseIsReportedAsInUse() async throws {
        let holder = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "0.0.0.0", port: 0).get()
        let port = try #require(holder.localAddress?.port)
        let listener = BeaconListener(configuration: .loopback(port: port), onEvent: { _ in })
        defer { Task { try? await holder.close(); await listener.stop() } }
        #expect(await listener.start() == .unavailable(.portInUse(port)))
    }

    @Test func anUnusableMulticastInterfaceLimitsTheAnnouncer() async throws {
        let c = Collector()
        let listener = BeaconListener(configuration: .loopback(port: 0), onEvent: c.add)
        await listener.start()
        let statuses = StatusLog()
        // 192.0.2.0/24 is TEST-NET-1: not an address of this machine.
        var config = BeaconConfiguration.loopback(port: try #require(listener.boundPort))
        config.multicastInterfaces = ["192.0.2.123"]
        let announcer = BeaconAnnouncer(configuration: config, onStatus: statuses.add)
        defer { Task { await announcer.shutdown(); await listener.stop() } }
        announcer.announce(anna)
        try await waitUntil { statuses.last == .limited(.noMulticastRoute) }
        // Broadcast still gets through.
        try await waitUntil { c.list().session(id: anna.sessionID) != nil }
    }
}

/// Feeds beacon events into a DiscoveryList, as the app does.
private final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var _list = DiscoveryList()
    private var _events: [BeaconEvent] = []
    var lifetime: Duration {
        get { lock.withLock { _list.lifetimes[.beacon]! } }
        set { lock.withLock { _list.lifetimes[.beacon] = newValue } }
    }

    var add: @Sendable (BeaconEvent) -> Void {
        { [self] event in
            lock.withLock {
                _events.append(event)
                switch event {
                case .heard(let f): _list.record(f)
                case .goodbye(let id, let host): _list.remove(sessionID: id, mechanism: .beacon, host: host)
                }
            }
        }
    }

    var events: [BeaconEvent] { lock.withLock { _events } }
    func list() -> DiscoveryList { lock.withLock { _list } }
    func expireNow() -> DiscoveryList {
        lock.withLock {
            _list.expire(now: .now)
            return _list
        }
    }
}

private final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [MechanismStatus] = []
    var add: @Sendable (MechanismStatus) -> Void { { [self] s in lock.withLock { statuses.append(s) } } }
    var last: MechanismStatus? { lock.withLock { statuses.last } }
}

private struct TimedOut: Error {}

/// Polls until `condition` holds; the limit only stops a hang, it is not
/// what the test measures.
private func waitUntil(timeout: Duration = .seconds(20), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(20))
    }
}
