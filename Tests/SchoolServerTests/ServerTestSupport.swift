import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// The two databases every server test runs on. SQLite is a fresh file;
/// PostgreSQL is a fresh database in the private server that `make test`
/// starts (scripts/test-postgres.sh) and names in TEAMSKETCH_TEST_POSTGRES.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    static let postgresURL = ProcessInfo.processInfo.environment["TEAMSKETCH_TEST_POSTGRES"]

    /// A new, empty database with the schema applied.
    func makeDatabase(clock: ServerClock) async throws -> any ServerDatabase {
        try await makeLocation().open(logger: Logger(label: "test"), clock: clock)
    }

    /// Where a new, empty database is (a file not yet made, or a PostgreSQL
    /// database made just now without tables).
    func makeLocation() async throws -> DatabaseLocation {
        switch self {
        case .sqlite:
            return .sqlite(path: FileManager.default.temporaryDirectory.path + "/teamsketch-server-\(UUID().uuidString).sqlite")
        case .postgresql:
            guard let url = Self.postgresURL else {
                throw TestSetupProblem("PostgreSQL tests need TEAMSKETCH_TEST_POSTGRES (`make test` starts a private server)")
            }
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            do {
                let admin = try await DatabaseLocation(url).open(logger: Logger(label: "test"), migrating: false)
                try await admin.execute("CREATE DATABASE \(name)")
                await admin.close()
            } catch {
                throw TestSetupProblem("making a test database: \(String(reflecting: error))")
            }
            var components = URLComponents(string: url)!
            components.path = "/" + name
            return try DatabaseLocation(components.string!)
        }
    }
}

struct TestSetupProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var ms: Int64 = 1_790_000_000_000
    var now: Int64 { lock.withLock { ms } }
    func advance(seconds: Int64) { lock.withLock { ms += seconds * 1000 } }
    var clock: ServerClock { ServerClock { [self] in now } }
}

/// bcrypt at its lowest cost: the same code, fast enough for hundreds of sign-ins.
let testHasher = PasswordHasher.bcrypt(cost: 4)

/// A server on a fresh database, driven through Hummingbird's test client.
struct TestServer {
    let backend: Backend
    let clock = TestClock()
    var configuration = ServerConfiguration()
    /// Opens the database the server starts on; a fresh one when nil.
    var database: (@Sendable (ServerClock) async throws -> any ServerDatabase)?

    init(_ backend: Backend) {
        self.backend = backend
        configuration.port = 0
        // No 16 MiB written beside every test's database; the full-disk
        // tests make theirs.
        configuration.disk.ballast = 0
    }

    func run(_ body: @Sendable (TestAPI) async throws -> Void) async throws {
        let phase = Watchdog.tracker("\(backend)")
        phase.enter("making the database")
        let database = try await (self.database ?? backend.makeDatabase)(clock.clock)
        let app = try buildApplication(configuration,
                                       dependencies: ServerDependencies(database: database, hasher: testHasher,
                                                                        clock: clock.clock))
        do {
            phase.enter("starting the server")
            try await app.test(.live) { client in
                phase.enter("the test's own steps")
                try await body(TestAPI(client: client, database: database, clock: clock))
                phase.enter("stopping the server")
            }
        } catch {
            phase.enter("closing the database after \(error)")
            await database.close()
            throw error
        }
        phase.enter("closing the database")
        await database.close()
        phase.leave()
    }
}

/// A JSON request and its answer.
struct TestAPI: Sendable {
    let client: any TestClientProtocol
    let database: any ServerDatabase
    let clock: TestClock

    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: [UInt8]
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
        var problemCode: String? { object["code"] as? String }
    }

    /// `authorization`: the header as it is, for malformed ones.
    func call(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, authorization: String? = nil,
              json: Any? = nil, raw: [UInt8]? = nil, contentType: String = "application/json",
              headers extra: HTTPFields = [:]) async throws -> Answer {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let authorization { headers[.authorization] = authorization }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = contentType
        } else if let raw {
            body = ByteBuffer(bytes: raw)
            headers[.contentType] = contentType
        }
        return try await client.execute(uri: "/api/v1" + path, method: method, headers: headers, body: body) { response in
            Answer(status: response.status, headers: response.headers, body: Array(buffer: response.body))
        }
    }

    /// The header a device sends with its mark (`Teamsketch-Device`).
    static func device(_ mark: String) -> HTTPFields {
        [HTTPField.Name("Teamsketch-Device")!: mark]
    }

    /// A classroom kiosk's mark.
    static let kiosk = device("kiosk-in-room-12-0123456789")

    /// Signs a teacher in on a device: its classes' pupils are listed there from now on.
    func signIn(_ name: String, password: String = "correct horse", on device: HTTPFields) async throws {
        let answer = try await call(.post, "/sessions", json: ["name": name, "password": password], headers: device)
        guard answer.status == .created else { throw TestSetupProblem("signing \(name) in on a device gave \(answer.status)") }
    }

    /// Makes a teacher the way `create-teacher` does and signs them in.
    func teacher(_ name: String, password: String = "correct horse") async throws -> (id: String, token: String) {
        _ = try await Accounts.createTeacher(PersonName(name)!, password: password, database: database,
                                             hasher: testHasher, clock: clock.clock)
        let answer = try await call(.post, "/sessions", json: ["name": name, "password": password])
        guard answer.status == .created, let token = answer.object["token"] as? String,
              let account = answer.object["account"] as? [String: Any], let id = account["id"] as? String
        else { throw TestSetupProblem("signing in \(name) gave \(answer.status)") }
        return (id, token)
    }
}
