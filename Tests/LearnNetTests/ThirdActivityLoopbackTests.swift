import Foundation
import Testing
import LearnModel
import LearnNet
import TeamsketchTestSupport

// A third activity defined only here, with nothing but the public API (no
// @testable import): if it runs through the real session core over
// loopback, a new activity needs no change to the core.

/// "Tally": members tap, the host counts the taps and tells everyone; the
/// game ends the session when the goal from the lobby is reached. It needs
/// three players, so its start rule is not the sketch's or the word game's.
enum TallyActivity: ActivityDefinition {
    struct LobbyInfo: Hashable, Sendable { var goal: Int }

    enum Message: Hashable, Sendable {
        case tap
        case count(Int)
    }

    static let kind = SessionActivity(rawValue: "tally")!
    static let startRule = StartRule(minimumPlayers: 3, mayPlayAlone: false)

    static func encode(_ info: LobbyInfo) -> [UInt8] {
        var w = WireWriter()
        w.varint(info.goal)
        return w.bytes
    }

    static func decodeLobbyInfo(_ bytes: [UInt8]) throws(ActivityPayloadError) -> LobbyInfo {
        var r = WireReader(bytes)
        do { return LobbyInfo(goal: try r.varint(as: Int.self, max: 1000)) } catch {
            throw ActivityPayloadError(error.reason)
        }
    }

    // The same type numbers as the word game: only one activity runs in a session.
    static func encode(_ message: Message) -> ActivityMessage {
        switch message {
        case .tap:
            return ActivityMessage(type: 48, payload: [])
        case .count(let n):
            var w = WireWriter()
            w.varint(n)
            return ActivityMessage(type: 49, payload: w.bytes)
        }
    }

    static func decode(_ message: ActivityMessage) throws(ActivityPayloadError) -> Message {
        var r = WireReader(message.payload)
        switch message.type {
        case 48: return .tap
        case 49:
            do { return .count(try r.varint(as: Int.self)) } catch { throw ActivityPayloadError(error.reason) }
        default: throw ActivityPayloadError("no tally frame \(message.type)")
        }
    }
}

/// The host's side of Tally, called on the session's loop.
final class TallyHost: HostActivity, @unchecked Sendable {
    let declaration: ActivityDeclaration
    private let goal: Int
    private let lock = NSLock()
    private var _taps = 0
    private var _startedSeen = false

    init(goal: Int) {
        self.goal = goal
        declaration = TallyActivity.declaration(TallyActivity.LobbyInfo(goal: goal))
    }

    var taps: Int { lock.withLock { _taps } }
    var startedSeen: Bool { lock.withLock { _startedSeen } }

    func received(_ message: ActivityMessage, from member: MemberIndex, on connection: ConnectionID,
                  host: HostActivityContext) throws(ActivityPayloadError) {
        guard case .tap = try TallyActivity.decode(message) else {
            throw ActivityPayloadError("only the host counts")
        }
        guard host.session.isStarted else { return }
        let n = lock.withLock { _taps += 1; return _taps }
        host.sendToAccepted(TallyActivity.encode(.count(n)))
        if n >= goal { host.endSession(.hostEnded) }
    }

    func performed(_ effects: [HostSession.Effect], host: HostActivityContext) {
        for case .event(.started) in effects { lock.withLock { _startedSeen = true } }
    }
}

/// What a Tally member saw.
final class TallySeen: @unchecked Sendable {
    private let lock = NSLock()
    private var _counts: [Int] = []
    private var _lobby: Lobby?
    var counts: [Int] { lock.withLock { _counts } }
    var lobby: Lobby? { lock.withLock { _lobby } }
    func add(_ n: Int) { lock.withLock { _counts.append(n) } }
    func show(_ l: Lobby) { lock.withLock { _lobby = l } }
}

@Suite struct ThirdActivityLoopbackTests {
    private func join(_ port: Int, _ name: String, seen: TallySeen, events: EventLog) async throws -> SessionClient {
        var config = SessionClient.Configuration(host: "127.0.0.1", port: port, name: name)
        config.log = .silent
        return try await SessionClient.connect(config, onActivityMessage: { m throws(ActivityPayloadError) in
            if case .count(let n) = try TallyActivity.decode(m) { seen.add(n) }
        }, onEvent: { event in
            if case .lobbyChanged(let l) = event { seen.show(l) }
            events.record(event)
        })
    }

    @Test func aTestOnlyActivityRunsThroughTheRealSessionCore() async throws {
        let tally = TallyHost(goal: 3)
        var config = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Tally"))
        config.bindHost = "127.0.0.1"
        config.log = .silent
        let hostEvents = EventLog()
        let host = try await SessionHost.start(config, activity: tally, onEvent: hostEvents.handler)

        // Lobby: the joiner learns the kind and the activity's own block.
        let seenA = TallySeen(), eventsA = EventLog()
        let a = try await join(host.port, "Ada", seen: seenA, events: eventsA)
        try await eventually("lobby seen") { seenA.lobby != nil }
        let lobby = try #require(seenA.lobby)
        #expect(lobby.activity == TallyActivity.kind)
        #expect(TallyActivity.lobbyInfo(of: lobby) == TallyActivity.LobbyInfo(goal: 3))
        #expect(lobby.wordPost == nil)
        #expect(await host.lobby().activity == TallyActivity.kind)

        // Accepted in the lobby, but two players are fewer than Tally's rule.
        let index = try #require(lobby.members.last?.index)
        host.accept(index)
        try await eventually("accepted") { await a.state().phase == .accepted }
        host.start()
        try await eventually("refused") {
            hostEvents.contains { if case .refused = $0 { true } else { false } }
        }
        #expect(!(await host.state().isStarted))

        // A third player: now the start goes ahead, for everyone.
        let seenB = TallySeen(), eventsB = EventLog()
        let b = try await join(host.port, "Ben", seen: seenB, events: eventsB)
        try await eventually("Ben waits") { await host.lobby().members.count == 3 }
        host.accept(try #require(await host.lobby().members.last?.index))
        try await eventually("three in") { await host.lobby().connectedDrawers == 3 }
        host.start()
        try await eventually("started") {
            let pa = await a.state().phase, pb = await b.state().phase
            return pa == .started && pb == .started
        }
        #expect(tally.startedSeen)

        // The activity's own frames, both ways, carried unread by the core.
        a.sendActivity(TallyActivity.encode(.tap))
        try await eventually("counted") { seenA.counts == [1] && seenB.counts == [1] }
        b.sendActivity(TallyActivity.encode(.tap))
        a.sendActivity(TallyActivity.encode(.tap))
        try await eventually("goal reached, session ended") {
            eventsA.contains(.ended(.hostEnded)) && eventsB.contains(.ended(.hostEnded))
        }
        #expect(seenA.counts == [1, 2, 3] && seenB.counts == [1, 2, 3])
        #expect(tally.taps == 3)
        await host.shutdown()
    }

    @Test func aFrameTheActivityRefusesClosesOnlyThatConnection() async throws {
        let tally = TallyHost(goal: 10)
        var config = SessionHost.Configuration(name: "Teacher", params: SessionParams(name: "Tally"))
        config.bindHost = "127.0.0.1"
        config.acceptAll = true
        config.log = .silent
        let host = try await SessionHost.start(config, activity: tally)
        let good = try await join(host.port, "Good", seen: TallySeen(), events: EventLog())
        let eventsBad = EventLog()
        let bad = try await join(host.port, "Bad", seen: TallySeen(), events: eventsBad)
        // The host counts a member in as soon as it accepts; the member
        // knows a moment later, so wait until it does.
        try await eventually("both in") {
            let counted = await host.lobby().connectedDrawers == 3
            let goodIn = await good.state().phase == .accepted, badIn = await bad.state().phase == .accepted
            return counted && goodIn && badIn
        }
        // Only the host counts: a member's count is refused and its connection closed.
        bad.sendActivity(TallyActivity.encode(.count(99)))
        try await eventually("bad one dropped") {
            eventsBad.contains { if case .connectionLost = $0 { true } else { false } }
        }
        let phase = await good.state().phase
        #expect(phase == .accepted, "\(phase)")
        await bad.leave()
        await good.leave()
        await host.shutdown()
    }
}
