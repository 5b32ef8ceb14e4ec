import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// A server asked to stop (SIGTERM, as a service manager does) tells the
/// desktops relayed through it why, takes no new connection, and lets a
/// push it is storing finish: the push is answered and kept.
@Suite struct ServerStopTests {
    @Test(arguments: Backend.allCases)
    func aStopFinishesThePushUnderWayAndSaysGoodbyeToRelayedDesktops(_ backend: Backend) async throws {
        // Yesterday's lesson: a class whose pupils signed in.
        let location = try await backend.makeLocation()
        var setUp = TestServer(backend)
        setUp.database = { clock in try await location.open(logger: Logger(label: "test"), clock: clock) }
        let clock = setUp.clock
        let klass = NIOLockedValueBox<TestClass?>(nil)
        try await setUp.run { api in
            let teacher = try await api.teacher("Frau Berg")
            let made = try await api.schoolClass("2b", teacher: teacher.token, pupils: ["Mia", "Ole"])
            klass.withLockedValue { $0 = made }
        }
        let pupils = try #require(klass.withLockedValue { $0 })
        let mia = try #require(pupils.pupils["Mia"]), ole = try #require(pupils.pupils["Ole"])

        // The server as the command runs it, on a database that holds the
        // first push's write until the test lets it go.
        let held = HeldPush(try await location.open(logger: Logger(label: "test"), clock: clock.clock))
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.disk.ballast = 0
        let stop = ServerStop()
        let (ports, running) = AsyncStream<Int>.makeStream()
        let app = try buildApplication(configuration,
                                       dependencies: ServerDependencies(database: held, hasher: testHasher, clock: clock.clock),
                                       stop: stop, onServerRunning: { running.yield($0) })
        let stoppingTold = NIOLockedValueBox(false)
        let server = Task {
            defer { running.finish() }
            try await stop.run(app, logger: Logger(label: "test"), signals: []) {
                stoppingTold.withLockedValue { $0 = true }
            }
        }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())

        // Mia relays a session; her control socket is open.
        let session = UUID()
        let (told, tell) = AsyncStream.makeStream(of: String.self)
        let control = Task { () throws -> WebSocketCloseFrame? in
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/relay/v1/host/\(session.uuidString.lowercased())?name=Zoo",
                configuration: .init(additionalHeaders: [.authorization: "Bearer \(mia.token)"]),
                logger: Logger(label: "test-socket")
            ) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { tell.yield(text) }
                }
                tell.finish()
            }
        }
        var messages = told.makeAsyncIterator()
        #expect(await messages.next() == "ready")

        // Ole pushes a sketch; the server is storing it when the stop comes.
        let push = Task {
            try await RawHTTP.post(port: port, "/api/v1/sync/push", token: ole.token,
                                   json: ["changes": [Changes.create(UUID(), name: "Bahnhof", origin: .alone(creator: UUID(uuidString: ole.id)))]])
        }
        await held.untilHolding()
        stop.request()

        // Mia's desktop hears why, while the push is still being stored.
        let goodbye = try await control.value
        #expect(goodbye?.closeCode == .goingAway)
        #expect(goodbye?.reason == ServerStop.reason)
        #expect(stoppingTold.withLockedValue { $0 })
        try await eventually("the stopping server takes no new connection") {
            (try? await RawHTTP.exchange(port: port, [Array("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)])) == nil
        }
        #expect(held.isHolding, "the stop did not wait for the push")

        // The push is stored and answered; then the server has stopped.
        held.release()
        let answer = try await push.value
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        try await server.value
        await held.close()

        let database = try await location.open(logger: Logger(label: "test"), clock: clock.clock)
        let stored = try await database.query("SELECT entity FROM change WHERE entity = 'sketch'")
        await database.close()
        #expect(stored.count == 1)
    }
}

/// A database that holds the first push's writes (the statements storing
/// changes) until released, to stop a server with a push under way.
final class HeldPush: ServerDatabase {
    let base: any ServerDatabase
    private let state = NIOLockedValueBox(State())
    private struct State {
        var held = false
        var holding: CheckedContinuation<Void, Never>?
        var waitingForHold: [CheckedContinuation<Void, Never>] = []
        var released = false
    }

    init(_ base: any ServerDatabase) { self.base = base }

    var dialect: SQLDialect { base.dialect }
    var localFolder: String? { base.localFolder }
    var isHolding: Bool { state.withLockedValue { $0.holding != nil } }
    func isDiskFull(_ error: any Error) -> Bool { base.isDiskFull(error) }
    func close() async { await base.close() }
    func query(_ statement: SQLStatement) async throws -> [SQLRow] { try await base.query(statement) }
    @discardableResult
    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] { try await base.transaction(statements) }

    func serialized(_ statements: [SQLStatement]) async throws {
        if statements.contains(where: { $0.sql.contains("INSERT INTO change") }) {
            await withCheckedContinuation { holding in
                let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>]? in
                    guard !state.held, !state.released else { return nil }
                    state.held = true
                    state.holding = holding
                    defer { state.waitingForHold = [] }
                    return state.waitingForHold
                }
                guard let waiters else { return holding.resume() }
                waiters.forEach { $0.resume() }
            }
        }
        try await base.serialized(statements)
    }

    func untilHolding() async {
        await withCheckedContinuation { waiter in
            let now = state.withLockedValue { state in
                if state.held { return true }
                state.waitingForHold.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    func release() {
        let holding = state.withLockedValue { state in
            state.released = true
            defer { state.holding = nil }
            return state.holding
        }
        holding?.resume()
    }
}

extension RawHTTP {
    /// A JSON POST and the whole answer as text (the connection is closed
    /// after it).
    static func post(port: Int, _ path: String, token: String, json: Any) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: json)
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return try await exchange(port: port, [Array(head.utf8) + Array(body)])
    }
}
