import Foundation
import Glibc
import Hummingbird
import HummingbirdTesting
import LearnModel
import Synchronization
import Testing
import TeamsketchTestSupport
@testable import LearnNet
@testable import SchoolServer

/// A host keeps its session offered through the school server: when the
/// server goes away mid-session and comes back on the same address, the
/// session is listed again without anyone doing anything, and the class
/// can join it.
@Suite(.serialized) struct RelayOfferTests {
    @Test(arguments: Backend.allCases)
    func aSessionIsOfferedAgainAfterTheServerRestarts(_ backend: Backend) async throws {
        let clock = TestClock()
        let database = try await backend.makeDatabase(clock: clock.clock)
        defer { Task { await database.close() } }
        func server(port: Int) throws -> some ApplicationProtocol {
            var configuration = ServerConfiguration()
            configuration.port = port
            return try buildApplication(configuration, dependencies: ServerDependencies(database: database, hasher: testHasher,
                                                                                      clock: clock.clock))
        }

        var config = SessionHost.Configuration(name: "Mia", params: SessionParams(name: "Zoo"))
        config.bindHost = "127.0.0.1"
        config.acceptAll = true
        config.log = .silent
        let host = try await SessionHost.start(config)
        let states = Mutex<[RelayOfferState]>([])

        // The class, made through a server of its own.
        let klass = try await server(port: 0).test(.live) { client in
            let api = TestAPI(client: client, database: database, clock: clock)
            let teacher = try await api.teacher("Frau Berg")
            return try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
        }

        // The school's server, on a port no other test's server can be
        // given meanwhile (they take ephemeral ones), so the one that comes
        // back below is this school's.
        let port = try portOutsideTheEphemeralRange()
        let first = Task { try await server(port: port).runService(gracefulShutdownSignals: []) }
        let endpoint = RelayEndpoint(host: "127.0.0.1", port: port, token: klass.pupils["Mia"]!.token)
        let offer = host.keepRelayed(through: endpoint, sessionName: "Zoo") { state in
            states.withLock { $0.append(state) }
        }
        try await eventually("listed") { states.withLock { $0.last == .listed } }

        // The server is gone: the host notices and keeps trying.
        first.cancel()
        _ = try? await first.value
        try await eventually("the loss noticed") {
            states.withLock { if case .retrying? = $0.last { true } else { false } }
        }

        // It comes back on the same address: the session is offered again,
        // the host waiting at most a few seconds between tries, and Ole
        // joins through it.
        let again = try server(port: port)
        let running = Task { try await again.runService(gracefulShutdownSignals: []) }
        defer { running.cancel() }
        try await eventually(timeout: .seconds(60), "listed again") {
            states.withLock { $0.filter { $0 == .listed }.count == 2 }
        }
        #expect(!states.withLock { $0.contains { if case .refused = $0 { true } else { false } } })
        var join = SessionClient.Configuration(host: "school server", port: port, name: "Ole")
        join.relay = RelayRoute(endpoint: RelayEndpoint(host: "127.0.0.1", port: port, token: klass.pupils["Ole"]!.token),
                                sessionID: await host.relayID)
        join.log = .silent
        join.connectTimeout = .seconds(30)
        let ole = try await SessionClient.connect(join)
        try await eventually("Ole accepted", saw: { "phase \(await ole.state().phase)" }) { await ole.state().phase == .accepted }
        await ole.leave()
        // Ending the session ends the offer (its task returns).
        await host.end()
        await offer.value
    }

    /// Buchstaben Post goes the same way: its frames ride on the session's,
    /// so a classmate on another network plays through the server.
    @Test(arguments: Backend.allCases)
    func buchstabenPostIsPlayedThroughTheRelay(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let teacher = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            let port = try #require(api.client.port)
            var config = WordPostHost.Configuration(name: "Mia", pool: WordPostFixture.germanPool)
            config.session.acceptAll = true
            config.session.bindHost = "127.0.0.1"
            config.session.log = .silent
            config.seed = 7
            let host = try await WordPostHost.start(config)
            let listed = Mutex(false)
            let offer = host.session.keepRelayed(through: RelayEndpoint(host: "127.0.0.1", port: port,
                                                                        token: klass.pupils["Mia"]!.token),
                                                 sessionName: "Tiere") { state in
                if state == .listed { listed.withLock { $0 = true } }
            }
            try await eventually("listed") { listed.withLock { $0 } }

            var join = WordPostClient.Configuration(host: "school server", port: port, name: "Ole")
            join.session.relay = RelayRoute(endpoint: RelayEndpoint(host: "127.0.0.1", port: port,
                                                                    token: klass.pupils["Ole"]!.token),
                                            sessionID: await host.session.relayID)
            join.session.log = .silent
            join.session.connectTimeout = .seconds(30)
            let ole = try await WordPostClient.connect(join)
            try await eventually("Ole in", saw: { "lobby \(await host.lobby())" }) { await host.lobby().connectedDrawers == 2 }
            host.startGame()
            try await eventually("Ole sees the first round") { ole.game?.round == 1 }
            let hostGame = try #require(await host.game())
            #expect(ole.game?.players == hostGame.players)
            await ole.leave()
            host.endGame()
            await host.shutdown()
            await offer.value
        }
    }
}
