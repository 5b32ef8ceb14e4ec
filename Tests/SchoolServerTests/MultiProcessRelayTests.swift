import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import LearnModel
import Logging
import NIOCore
import Testing
import TeamsketchTestSupport
@testable import LearnNet
@testable import SchoolServer

/// Two server processes behind one address, sharing one database: each
/// application has its own port and its own relay hub, as two processes
/// would. A session is paired in the process holding its host's control
/// socket; everything else about it (the listing, who may, the caps) is
/// the same at every process.
@Suite(.serialized, .timeLimit(.minutes(3))) struct MultiProcessRelayTests {
    static let patience: Duration = .seconds(60)

    private func member(_ name: String, token: String, port: Int, session: UUID) async throws -> SessionClient {
        var config = SessionClient.Configuration(host: "school server", port: port, name: name)
        config.relay = RelayRoute(endpoint: RelayEndpoint(host: "127.0.0.1", port: port, token: token), sessionID: session)
        config.log = .silent
        config.connectTimeout = Self.patience
        return try await SessionClient.connect(config, onEvent: { _ in })
    }

    private func startHost(_ name: String) async throws -> SessionHost {
        var config = SessionHost.Configuration(name: name, params: SessionParams(name: "Zoo"))
        config.bindHost = "127.0.0.1"
        config.acceptAll = true
        config.log = .silent
        return try await SessionHost.start(config)
    }

    private func listed(_ api: TestAPI, token: String) async throws -> [[String: Any]] {
        try await api.client.execute(uri: "/relay/v1/sessions", method: .get,
                                     headers: [.authorization: "Bearer \(token)"]) { response in
            #expect(response.status == .ok)
            return (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [[String: Any]] ?? []
        }
    }

    private func plain(_ api: TestAPI, _ path: String, token: String) async throws -> (HTTPResponse.Status, String) {
        try await api.client.execute(uri: path, method: .get, headers: [.authorization: "Bearer \(token)"]) {
            ($0.status, String(buffer: $0.body))
        }
    }

    private func endpoint(_ api: TestAPI, _ token: String) throws -> RelayEndpoint {
        RelayEndpoint(host: "127.0.0.1", port: try #require(api.client.port), token: token)
    }

    @Test(arguments: Backend.allCases)
    func aSessionHostedAtOneProcessIsJoinedThroughTheOther(_ backend: Backend) async throws {
        try await TwoServers(backend).run { a, b in
            let teacher = try await a.teacher("Frau Berg")
            let klass = try await a.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole", "Ben"])
            let other = try await b.schoolClass("3a", teacher: teacher.token, pupils: ["Zoe"])
            let mia = klass.pupils["Mia"]!, ole = klass.pupils["Ole"]!, ben = klass.pupils["Ben"]!
            let portA = try #require(a.client.port), portB = try #require(b.client.port)

            // Mia's control socket is at A: A owns the session.
            let host = try await startHost("Mia")
            try await host.relay(through: try endpoint(a, mia.token), sessionName: "Zoo", timeout: Self.patience)
            let session = await host.relayID.uuidString.lowercased()

            // B lists it as A does, with its activity.
            for api in [a, b] {
                let seen = try await listed(api, token: ole.token)
                #expect(seen.map { $0["id"] as? String } == [session])
                #expect(seen.first?["activity"] as? String == "sketch")
                #expect(seen.first?["name"] as? String == "Zoo" && seen.first?["host"] as? String == "Mia")
                #expect(seen.first?["hostId"] as? String == mia.id && seen.first?["classId"] as? String == klass.id)
                #expect(try await listed(api, token: other.pupils["Zoe"]!.token).isEmpty)
            }
            // B answers plainly from the database as A would.
            #expect(try await plain(b, "/relay/v1/join/\(session)", token: ole.token).0 == .badRequest)
            #expect(try await plain(b, "/relay/v1/join/\(session)", token: other.pupils["Zoe"]!.token).0 == .forbidden)
            #expect(try await plain(b, "/relay/v1/answer/\(session)/\(UUID())", token: ole.token).0 == .forbidden)
            #expect(try await plain(b, "/relay/v1/host/\(session)", token: ole.token).0 == .conflict)
            do {
                _ = try await member("Zoe", token: other.pupils["Zoe"]!.token, port: portB, session: await host.relayID)
                Issue.record("another class's pupil got in through B")
            } catch {
                #expect("\(error)".contains("HTTP 403"), "\(error)")
            }

            // Ole joins at B: passed on to A, where Mia's answer is paired.
            let oleClient = try await member("Ole", token: ole.token, port: portB, session: await host.relayID)
            try await eventually("Ole accepted", saw: { "phase \(await oleClient.state().phase)" }) { await oleClient.state().phase == .accepted }
            host.start()
            try await eventually("Ole started", saw: { "phase \(await oleClient.state().phase)" }) { await oleClient.state().phase == .started }
            draw(host, strokes: 3, seed: 1)
            draw(oleClient, strokes: 3, seed: 2)
            try await converge([host, oleClient], strokes: 6)

            // Ben joins at A directly; a late joiner through B gets it all too.
            let benClient = try await member("Ben", token: ben.token, port: portA, session: await host.relayID)
            try await eventually("Ben started", saw: { "phase \(await benClient.state().phase)" }) { await benClient.state().phase == .started }
            draw(benClient, strokes: 2, seed: 3)
            try await converge([host, oleClient, benClient], strokes: 8)

            // Ole's connection at B breaks: he comes back through B.
            let index = try #require(await oleClient.state().index)
            await oleClient.dropConnectionForTesting()
            draw(host, strokes: 2, seed: 4)
            try await eventually("Ole back", saw: { "lobby \(await host.lobby())" }) { await host.lobby().member(index)?.connected == true }
            try await converge([host, oleClient, benClient], strokes: 10)

            // Mia leaves: the end reaches both, and neither process lists it.
            await host.end()
            for c in [oleClient, benClient] {
                try await eventually("the end reached everyone", saw: { "phase \(await c.state().phase)" }) { await c.state().phase == .ended(.hostEnded) }
            }
            for api in [a, b] {
                try await eventually("the session is no longer listed") {
                    (try? await listed(api, token: ole.token).isEmpty) == true
                }
            }
            #expect(try await plain(b, "/relay/v1/join/\(session)", token: ole.token).0 == .notFound)
        }
    }

    /// The host answers at the process that is not the owner too, and the
    /// bytes go both ways through two passed-on sockets; one side closing
    /// closes the other.
    @Test(arguments: Backend.allCases)
    func aMemberAndTheHostsAnswerBothArriveAtTheOtherProcess(_ backend: Backend) async throws {
        try await TwoServers(backend).run { a, b in
            let teacher = try await a.teacher("Frau Berg")
            let klass = try await a.schoolClass("2b", teacher: teacher.token, pupils: ["Ole"])
            let ole = klass.pupils["Ole"]!
            let portA = try #require(a.client.port), portB = try #require(b.client.port)
            let session = UUID().uuidString.lowercased()

            let control = try await TestSocket.open(
                port: portA, path: "/relay/v1/host/\(session)?class=\(klass.id)&name=Post&activity=wordpost",
                token: teacher.token)
            var fromServer = control.incoming.makeAsyncIterator()
            let ready = await fromServer.next()
            #expect(ready == .text("ready"))
            let seen = try await listed(b, token: ole.token)
            #expect(seen.map { $0["id"] as? String } == [session])
            #expect(seen.first?["activity"] as? String == "wordpost" && seen.first?["name"] as? String == "Post")

            let member = try await TestSocket.open(port: portB, path: "/relay/v1/join/\(session)", token: ole.token)
            let open = await fromServer.next()
            guard case .text(let text)? = open else { Issue.record("no open: \(String(describing: open))"); return }
            let words = text.split(separator: " ")
            #expect(words.count == 3 && words[0] == "open" && String(words[2]) == ole.id)
            let answer = try await TestSocket.open(port: portB, path: "/relay/v1/answer/\(session)/\(words[1])",
                                                   token: teacher.token)
            var toHost = answer.incoming.makeAsyncIterator()
            var toMember = member.incoming.makeAsyncIterator()
            member.send(.binary([1, 2, 3]))
            let first = await toHost.next()
            #expect(first == .binary([1, 2, 3]))
            answer.send(.binary([4, 5]))
            let back = await toMember.next()
            #expect(back == .binary([4, 5]))
            member.send(.binary(Array(repeating: 7, count: 200_000)))
            var got: [UInt8] = []
            while got.count < 200_000, case .binary(let piece)? = await toHost.next() { got += piece }
            #expect(got == Array(repeating: 7, count: 200_000))

            // The host's side ends: the member's socket at B is closed too.
            answer.close()
            let last = await toMember.next()
            #expect(last == nil)

            control.close()
            for api in [a, b] {
                try await eventually("the session is no longer listed") {
                    (try? await listed(api, token: ole.token).isEmpty) == true
                }
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aStaleListingIsNotShownAndOnlyItsHostMayTakeItsIdAgain(_ backend: Backend) async throws {
        try await TwoServers(backend).run { a, b in
            let teacher = try await a.teacher("Frau Berg")
            let klass = try await a.schoolClass("2b", teacher: teacher.token, pupils: ["Ole"])
            let rival = try await a.teacher("Herr Kern")
            let rivalClass = try await a.schoolClass("4c", teacher: rival.token, pupils: [])
            let ole = klass.pupils["Ole"]!
            let id = UUID()
            let session = id.key

            // A process that died a while ago with this session listed.
            let past = a.clock.now - 120_000
            let claim = try await RelayListingStore(db: a.database).claim(.init(
                id: id, classID: UUID(uuidString: klass.id)!, name: "Old", activity: "sketch",
                hostID: UUID(uuidString: teacher.id)!, hostName: "Frau Berg", ownerAddress: "http://127.0.0.1:9",
                registration: UUID(), registeredAt: past, heartbeatAt: past))
            #expect(claim == .claimed)
            for api in [a, b] {
                #expect(try await listed(api, token: ole.token).isEmpty)
                #expect(try await plain(api, "/relay/v1/join/\(session)", token: ole.token).0 == .notFound)
            }

            // Another teacher cannot take the id, at either process.
            for api in [a, b] {
                #expect(try await plain(api, "/relay/v1/host/\(session)?class=\(rivalClass.id)", token: rival.token).0
                    == .conflict)
            }
            // A host that meets a taken id (the rival's laptop drew the same
            // one) gives it up for a fresh one and is listed under that.
            let rivalHost = try await startHost("Herr Kern")
            await rivalHost.core.read { $0.relayID = id }
            try await rivalHost.relay(through: try endpoint(b, rival.token), sessionName: "Mine",
                                      classID: UUID(uuidString: rivalClass.id)!, timeout: Self.patience)
            #expect(await rivalHost.relayID != id)
            await rivalHost.end()

            // Its own host may, at another process: listed again, owned by B.
            let host = try await startHost("Frau Berg")
            await host.core.read { $0.relayID = id }
            try await host.relay(through: try endpoint(b, teacher.token), sessionName: "Zoo",
                                 classID: UUID(uuidString: klass.id)!, timeout: Self.patience)
            #expect(try await listed(a, token: ole.token).map { $0["name"] as? String } == ["Zoo"])
            let row = try #require(try await RelayListingStore(db: a.database).session(id))
            #expect(row.ownerAddress == "http://127.0.0.1:\(try #require(b.client.port))")

            // Its heartbeat keeps it listed when time has moved on.
            a.clock.advance(seconds: 90)
            try await eventually("the heartbeat refreshed the listing") {
                (try? await RelayListingStore(db: a.database).session(id)?.heartbeatAt) == a.clock.now
            }
            #expect(try await listed(a, token: ole.token).count == 1)

            // A member joining at A reaches the host at B.
            let oleClient = try await member("Ole", token: ole.token, port: try #require(a.client.port), session: id)
            try await eventually("Ole accepted", saw: { "phase \(await oleClient.state().phase)" }) { await oleClient.state().phase == .accepted }

            // Ended, the id stays the host's: the rival still gets 409.
            await host.end()
            try await eventually("the end reached Ole", saw: { "phase \(await oleClient.state().phase)" }) { await oleClient.state().phase == .ended(.hostEnded) }
            for api in [a, b] {
                try await eventually("the session is no longer listed") {
                    (try? await listed(api, token: ole.token).isEmpty) == true
                }
                #expect(try await plain(api, "/relay/v1/host/\(session)?class=\(rivalClass.id)", token: rival.token).0
                    == .conflict)
            }
            #expect(try await RelayListingStore(db: b.database).session(id)?.endedAt != nil)
            // …and its own host may list it once more.
            #expect(try await plain(a, "/relay/v1/host/\(session)?class=\(klass.id)", token: teacher.token).0
                == .badRequest)
        }
    }

    @Test(arguments: Backend.allCases)
    func oneAccountHostsAtMostFourSessionsOverBothProcessesAndNamesAnActivityProperly(_ backend: Backend) async throws {
        try await TwoServers(backend).run { a, b in
            let teacher = try await a.teacher("Frau Berg")
            let klass = try await a.schoolClass("2b", teacher: teacher.token, pupils: ["Ole"])
            let classID = UUID(uuidString: klass.id)!
            var hosts: [SessionHost] = []
            for api in [a, b, a, b] {
                let host = try await startHost("Frau Berg")
                try await host.relay(through: try endpoint(api, teacher.token), sessionName: "S\(hosts.count)",
                                     classID: classID, timeout: Self.patience)
                hosts.append(host)
            }
            #expect(try await listed(b, token: klass.pupils["Ole"]!.token).count == 4)

            let fifth = try await startHost("Frau Berg")
            let path = "/relay/v1/host/\(fifth.sessionID.key)?class=\(klass.id)"
            for api in [a, b] {
                let (status, body) = try await plain(api, path, token: teacher.token)
                #expect(status == .tooManyRequests)
                #expect(body.contains("at most 4 sessions"), "\(body)")
            }
            await #expect(throws: RelayError.refused(status: 429)) {
                try await fifth.relay(through: try endpoint(a, teacher.token), sessionName: "S4", classID: classID,
                                      timeout: Self.patience)
            }
            // One of the four re-registering its own id is not a fifth.
            #expect(try await plain(b, "/relay/v1/host/\(await hosts[0].relayID.key)?class=\(klass.id)",
                                    token: teacher.token).0 == .badRequest)

            // One ends: the fifth may start.
            await hosts[1].end()
            try await eventually("three left") { (try? await listed(a, token: klass.pupils["Ole"]!.token).count) == 3 }
            try await fifth.relay(through: try endpoint(b, teacher.token), sessionName: "S4", classID: classID,
                                  timeout: Self.patience)
            #expect(try await listed(a, token: klass.pupils["Ole"]!.token).count == 4)

            // The activity is a name as the room's network allows one.
            let other = UUID().key
            for bad in ["Sketch", "word_2", "", String(repeating: "a", count: 33), "sketch%20x"] {
                let (status, body) = try await plain(b, "/relay/v1/host/\(other)?class=\(klass.id)&activity=\(bad)",
                                                     token: teacher.token)
                #expect(status == .badRequest && body.contains("activity"), "\(bad): \(status) \(body)")
            }
            let (status, body) = try await plain(b, "/relay/v1/host/\(other)?class=\(klass.id)&activity=wordpost",
                                                 token: teacher.token)
            #expect(status == .tooManyRequests, "\(body)")
            for host in hosts + [fifth] { await host.end() }
        }
    }
}

/// Two applications (two server processes, as far as the relay can tell)
/// on one database, each on its own loopback port, with one clock.
struct TwoServers {
    let backend: Backend
    let clock = TestClock()

    init(_ backend: Backend) { self.backend = backend }

    func run(_ body: @Sendable (TestAPI, TestAPI) async throws -> Void) async throws {
        let phase = Watchdog.tracker("\(backend), two servers")
        phase.enter("making the databases")
        let location = try await backend.makeLocation()
        let logger = Logger(label: "test")
        let first = try await location.open(logger: logger, clock: clock.clock)
        let second: any ServerDatabase
        do {
            second = try await location.open(logger: logger, clock: clock.clock)
        } catch {
            await first.close()
            throw error
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.relayHeartbeat = .milliseconds(100)
        let clock = clock
        do {
            let appA = try buildApplication(configuration, dependencies: ServerDependencies(
                database: first, hasher: testHasher, clock: clock.clock))
            let appB = try buildApplication(configuration, dependencies: ServerDependencies(
                database: second, hasher: testHasher, clock: clock.clock))
            phase.enter("starting the first server")
            try await appA.test(.live) { a in
                phase.enter("starting the second server")
                try await appB.test(.live) { b in
                    phase.enter("the test's own steps")
                    try await body(TestAPI(client: a, database: first, clock: clock),
                                   TestAPI(client: b, database: second, clock: clock))
                    phase.enter("stopping the second server")
                }
                phase.enter("stopping the first server")
            }
        } catch {
            phase.enter("closing the databases after \(error)")
            await first.close()
            await second.close()
            throw error
        }
        phase.enter("closing the databases")
        await first.close()
        await second.close()
        phase.leave()
    }
}

/// A WebSocket the test drives by hand: what arrives comes in `incoming`
/// (which finishes when the socket closes); `send` and `close` go out.
final class TestSocket: Sendable {
    enum Message: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    let incoming: AsyncStream<Message>
    private let outgoing: AsyncStream<Message>.Continuation
    private let task: Task<Void, Never>

    private init(incoming: AsyncStream<Message>, outgoing: AsyncStream<Message>.Continuation, task: Task<Void, Never>) {
        self.incoming = incoming
        self.outgoing = outgoing
        self.task = task
    }

    deinit { outgoing.finish() }

    func send(_ message: Message) { outgoing.yield(message) }
    func close() { outgoing.finish() }

    struct Refused: Error {}

    /// Returns once upgraded; throws when the upgrade was refused.
    static func open(port: Int, path: String, token: String) async throws -> TestSocket {
        let (incoming, received) = AsyncStream.makeStream(of: Message.self)
        let (outgoingStream, outgoing) = AsyncStream.makeStream(of: Message.self)
        let (upgraded, upgrade) = AsyncStream.makeStream(of: Bool.self)
        let task = Task {
            do {
                try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)\(path)",
                    configuration: .init(maxFrameSize: RelayRoutes.maxMessageBytes,
                                         additionalHeaders: [.authorization: "Bearer \(token)"]),
                    logger: Logger(label: "test-socket")
                ) { inbound, outbound, _ in
                    upgrade.yield(true)
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            do {
                                for try await message in inbound.messages(maxSize: RelayRoutes.maxMessageBytes) {
                                    switch message {
                                    case .text(let text): received.yield(.text(text))
                                    case .binary(let bytes): received.yield(.binary(Array(buffer: bytes)))
                                    }
                                }
                            } catch {}
                        }
                        group.addTask {
                            do {
                                for await message in outgoingStream {
                                    switch message {
                                    case .text(let text): try await outbound.write(.text(text))
                                    case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                    }
                                }
                            } catch {}
                        }
                        await group.next()
                        group.cancelAll()
                    }
                }
            } catch {}
            upgrade.yield(false)
            upgrade.finish()
            received.finish()
        }
        var answers = upgraded.makeAsyncIterator()
        guard await answers.next() == true else { throw Refused() }
        return TestSocket(incoming: incoming, outgoing: outgoing, task: task)
    }
}
