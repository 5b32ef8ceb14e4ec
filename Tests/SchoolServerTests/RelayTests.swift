import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LearnModel
import NIOCore
import NIOPosix
import Testing
import TeamsketchTestSupport
@testable import LearnNet
@testable import SchoolServer

/// A session through the school server's relay, over real TCP and
/// WebSockets on loopback: the host and its members reach only the
/// server, never each other. The session's own rules (accepting, late
/// join, rejoin with a token, the end) are the same as on the room's
/// network; the server admits only the session's class.
@Suite(.serialized) struct RelayTests {
    /// Timeouts only guard against hangs here.
    static let patience: Duration = .seconds(30)

    private func member(_ name: String, token: String, port: Int, session: UUID,
                        events: EventLog? = nil) async throws(SessionClientError) -> SessionClient {
        var config = SessionClient.Configuration(host: "school server", port: port, name: name)
        config.relay = RelayRoute(endpoint: RelayEndpoint(host: "127.0.0.1", port: port, token: token), sessionID: session)
        config.log = .silent
        // The server answers in tasks of the test process's own, which the
        // tests running beside may keep waiting for seconds.
        config.connectTimeout = Self.patience
        return try await SessionClient.connect(config, onEvent: EventLog.handler(for: events))
    }

    /// Mia's session "Zoo", letting everyone in, offered through the relay.
    private func miaHostsZoo(token: String, port: Int) async throws -> SessionHost {
        var config = SessionHost.Configuration(name: "Mia", params: SessionParams(name: "Zoo"))
        config.bindHost = "127.0.0.1"
        config.acceptAll = true
        config.log = .silent
        let host = try await SessionHost.start(config)
        try await host.relay(through: RelayEndpoint(host: "127.0.0.1", port: port, token: token), sessionName: "Zoo",
                             timeout: Self.patience)
        return host
    }

    private func listed(_ client: any TestClientProtocol, token: String) async throws -> [[String: Any]] {
        try await client.execute(uri: "/relay/v1/sessions", method: .get,
                                 headers: [.authorization: "Bearer \(token)"]) { response in
            #expect(response.status == .ok)
            return (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [[String: Any]] ?? []
        }
    }

    @Test(arguments: Backend.allCases)
    func aClassDrawsThroughTheRelayWithALateJoinerAndADroppedMember(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole", "Ben"])
            let other = try await api.schoolClass("3a", teacher: teacher.token, pupils: ["Zoe"])
            let port = try #require(api.client.port)

            // Mia hosts; her session listens on loopback only for form's
            // sake: every member below comes through the server.
            let host = try await miaHostsZoo(token: klass.pupils["Mia"]!.token, port: port)

            // Her class sees the session; another class does not, and may not join.
            let seen = try await listed(api.client, token: klass.pupils["Ole"]!.token)
            #expect(seen.map { $0["id"] as? String } == [await host.relayID.uuidString.lowercased()])
            // Listed under an id of its own, with its LAN id beside it for join screens.
            #expect(await host.relayID != host.sessionID)
            #expect(seen.first?["session"] as? String == host.sessionID.uuidString.lowercased())
            #expect(seen.first?["name"] as? String == "Zoo" && seen.first?["host"] as? String == "Mia")
            #expect(try await listed(api.client, token: other.pupils["Zoe"]!.token).isEmpty)
            do {
                _ = try await member("Zoe", token: other.pupils["Zoe"]!.token, port: port, session: await host.relayID)
                Issue.record("another class's pupil got in")
            } catch {
                #expect("\(error)".contains("HTTP 403"), "\(error)")
            }
            do {
                _ = try await member("Nobody", token: "not-a-token", port: port, session: await host.relayID)
                Issue.record("a stranger got in")
            } catch {
                #expect("\(error)".contains("HTTP 401"), "\(error)")
            }

            let ole = try await member("Ole", token: klass.pupils["Ole"]!.token, port: port, session: await host.relayID)
            try await eventually("Ole accepted", saw: { "phase \(await ole.state().phase)" }) { await ole.state().phase == .accepted }
            host.start()
            try await eventually("Ole started", saw: { "phase \(await ole.state().phase)" }) { await ole.state().phase == .started }
            draw(host, strokes: 3, seed: 1)
            draw(ole, strokes: 3, seed: 2)
            try await converge([host, ole], strokes: 6)

            // A late joiner gets the whole sketch through the relay.
            let ben = try await member("Ben", token: klass.pupils["Ben"]!.token, port: port, session: await host.relayID)
            try await eventually("Ben started", saw: { "phase \(await ben.state().phase)" }) { await ben.state().phase == .started }
            draw(ben, strokes: 2, seed: 3)
            try await converge([host, ole, ben], strokes: 8)

            // Ole's connection breaks: he comes back through the relay with
            // his token, as the same member, and catches up.
            let before = await ole.state()
            let index = try #require(before.index)
            await ole.dropConnectionForTesting()
            draw(host, strokes: 2, seed: 4)
            try await eventually("Ole back", saw: { "lobby \(await host.lobby())" }) { await host.lobby().member(index)?.connected == true }
            try await converge([host, ole, ben], strokes: 10)
            let after = await ole.state()
            #expect(after.token == before.token && after.index == before.index)
            let authors = Set(await host.document().strokes.map(\.author))
            #expect(authors == ["Mia", "Ole", "Ben"])

            await host.end()
            for c in [ole, ben] {
                try await eventually("the end reached everyone", saw: { "phase \(await c.state().phase)" }) { await c.state().phase == .ended(.hostEnded) }
            }
            try await eventually("the session is no longer listed") {
                (try? await listed(api.client, token: klass.pupils["Ole"]!.token).isEmpty) == true
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func onlyTheHostAnswersAndOnlyForItsOwnClass(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let port = try #require(api.client.port)
            var config = SessionHost.Configuration(name: "Frau Berg", params: SessionParams(name: "Wald"))
            config.bindHost = "127.0.0.1"
            config.log = .silent
            let host = try await SessionHost.start(config)
            let endpoint = RelayEndpoint(host: "127.0.0.1", port: port, token: teacher.token)
            // A teacher names the class; a class not theirs is refused.
            await #expect(throws: RelayError.refused(status: 403)) {
                try await host.relay(through: endpoint, sessionName: "Wald", classID: UUID(), timeout: Self.patience)
            }
            try await host.relay(through: endpoint, sessionName: "Wald", classID: UUID(uuidString: klass.id)!,
                                 timeout: Self.patience)
            #expect(try await listed(api.client, token: klass.pupils["Ole"]!.token).count == 1)

            // Asked without an upgrade, the relay's addresses say why not
            // (400: only as a WebSocket).
            let session = await host.relayID.uuidString.lowercased()
            for (path, token, status) in [
                ("/relay/v1/join/\(session)", klass.pupils["Ole"]!.token, HTTPResponse.Status.badRequest),
                ("/relay/v1/join/\(UUID())", klass.pupils["Ole"]!.token, .notFound),
                ("/relay/v1/join/\(session)", "", .unauthorized),
                ("/relay/v1/answer/\(session)/\(UUID())", klass.pupils["Ole"]!.token, .forbidden),
                ("/relay/v1/answer/\(UUID())/\(UUID())", teacher.token, .notFound),
                ("/relay/v1/host/\(session)?class=\(klass.id)", klass.pupils["Ole"]!.token, .conflict),
            ] {
                let answered = try await api.client.execute(uri: path, method: .get,
                                                            headers: token.isEmpty ? [:] : [.authorization: "Bearer \(token)"]) {
                    $0.status
                }
                #expect(answered == status, "\(path)")
            }
            // A host that vanishes without a word (no WebSocket goodbye) is
            // no longer listed either.
            await host.crashForTesting()
            try await eventually("the vanished host's session is no longer listed") {
                (try? await listed(api.client, token: klass.pupils["Ole"]!.token).isEmpty) == true
            }
        }
    }

    /// The metrics page counts the sessions relayed here and their members
    /// while they last.
    @Test func theMetricsPageCountsRelayedSessionsAndMembers() async throws {
        var server = TestServer(.sqlite)
        server.configuration.metricsToken = try MetricsToken(MetricsTests.secret)
        try await server.run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let port = try #require(api.client.port)
            let host = try await miaHostsZoo(token: klass.pupils["Mia"]!.token, port: port)
            let ole = try await member("Ole", token: klass.pupils["Ole"]!.token, port: port, session: await host.relayID)
            try await eventually("Ole accepted", saw: { "phase \(await ole.state().phase)" }) { await ole.state().phase == .accepted }
            let drawing = try await api.metrics()
            #expect(drawing["teamsketch_relay_sessions"] == 1)
            #expect(drawing["teamsketch_relay_members"] == 1)
            await host.end()
            try await eventually("the ended session is no longer counted", saw: { "\(try? await api.metrics().values)" }) {
                let page = try? await api.metrics()
                return page?["teamsketch_relay_sessions"] == 0 && page?["teamsketch_relay_members"] == 0
            }
        }
    }

    /// An upgrade exists from HTTP/1.1 on; an HTTP/1.0 request asking for
    /// one is answered as plain HTTP. (NIO would upgrade it, and the first
    /// frame then stopped the whole server.)
    @Test func anHTTP10UpgradeIsAnsweredPlainlyAndTheServerCarriesOn() async throws {
        try await TestServer(.sqlite).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: [])
            let port = try #require(api.client.port)
            let request = "GET /relay/v1/host/\(UUID().uuidString.lowercased())?class=\(klass.id) HTTP/1.0\r\n"
                + "Host: 127.0.0.1\r\nAuthorization: Bearer \(teacher.token)\r\nConnection: Upgrade\r\n"
                + "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            let answer = try await RawHTTP.exchange(port: port, [Array(request.utf8), [0x82, 0x85, 1, 2, 3, 4, 5, 6, 7, 8, 9]])
            #expect(answer.hasPrefix("HTTP/1.0 400") || answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(80))")
            #expect(try await api.call(.get, "/health").status == .ok)
        }
    }
}

/// Bytes to a port and everything that comes back until the server closes.
enum RawHTTP {
    static func exchange(port: Int, _ pieces: [[UInt8]]) async throws -> String {
        let socket = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await socket.executeThenClose { inbound, outbound in
            for piece in pieces { try await outbound.write(ByteBuffer(bytes: piece)) }
            var text = ""
            for try await buffer in inbound { text += String(buffer: buffer) }
            return text
        }
    }
}

