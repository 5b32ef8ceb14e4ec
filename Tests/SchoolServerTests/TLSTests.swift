import Foundation
import Logging
import LearnModel
@testable import LearnNet
import LearnStore
import SchoolClient
import TeamsketchCore
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// HTTPS with a school's own certificate authority: a client that trusts
/// it gets answers, one that does not refuses to talk. The CA and the
/// server's certificate are made for the test with openssl; the clients are
/// curl and the desktop's own, both verifying the chain and the host name.
@Suite struct TLSTests {
    @Test func theServerSpeaksHTTPSWithTheCertificateItIsGiven() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("teamsketch-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await makeCertificates(in: dir)

        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.tls = .init(certificateChain: dir + "/server.pem", privateKey: dir + "/server.key")
        let database = try await Backend.sqlite.makeDatabase(clock: .live)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration, dependencies: ServerDependencies(database: database, hasher: testHasher),
                                       logger: Logger(label: "test")) { port in portSink.yield(port) }
        let running = Task { try await app.run() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())

        let trusted = try await curl(["--cacert", dir + "/ca.pem", "https://localhost:\(port)/api/v1/health"])
        #expect(trusted.status == 0, "\(trusted.output)")
        #expect(trusted.output.contains("\"status\" : \"ok\""), "\(trusted.output)")
        // curl's own trust store does not know the school's CA: code 60.
        let stranger = try await curl(["https://localhost:\(port)/api/v1/health"])
        #expect(stranger.status == 60, "\(stranger.output)")
        let plain = try await curl(["http://localhost:\(port)/api/v1/health"])
        #expect(plain.status != 0 || !plain.output.contains("\"ok\""), "no plain HTTP beside HTTPS")

        // The desktop's own client checks the certificate the same way: it
        // syncs when told to trust the school's CA and refuses otherwise.
        _ = try await Accounts.createTeacher(PersonName("Frau Berg")!, password: "correct horse", database: database,
                                             hasher: testHasher, clock: .live)
        let address = URL(string: "https://localhost:\(port)")!
        let trusting = try SchoolServerClient(address: address, trustedCertificates: dir + "/ca.pem")
        let signedIn = try await trusting.signInTeacher(name: "Frau Berg", password: "correct horse")
        let round = try await SyncService(store: try LocalStore.inMemory(), connection: trusting.connection(token: signedIn.token),
                                          key: "k").syncOnce()
        #expect(round.pushed == 0)
        let suspicious = try SchoolServerClient(address: address)
        await #expect(throws: SchoolServerClient.SignInFailure.self) {
            try await suspicious.signInTeacher(name: "Frau Berg", password: "correct horse")
        }
        // What the sign-in screen asks before trying plain HTTP: a server
        // with a certificate this computer does not trust is no reason to
        // (the password would go to whoever spoiled the TLS).
        #expect(await suspicious.probe() == .untrustedCertificate)
        #expect(await trusting.probe() == .answers)
        await suspicious.shutdown()

        // A session through the relay over HTTPS: the host and a member
        // trusting the school's CA get through; one that does not is told why.
        let classID = try await trusting.createClass(named: "2b", token: signedIn.token)
        var hostConfig = SessionHost.Configuration(name: "Frau Berg", params: SessionParams(name: "Wald"))
        hostConfig.bindHost = "127.0.0.1"
        hostConfig.log = .silent
        let host = try await SessionHost.start(hostConfig)
        let secure = RelayEndpoint(host: "localhost", port: port, token: signedIn.token, secure: true,
                                   trustedCertificates: dir + "/ca.pem")
        try await host.relay(through: secure, sessionName: "Wald", classID: try #require(classID.uuid), timeout: .seconds(30))
        var memberConfig = SessionClient.Configuration(host: "localhost", port: port, name: "Frau Berg", role: .observer)
        memberConfig.relay = RelayRoute(endpoint: secure, sessionID: await host.relayID)
        memberConfig.log = .silent
        memberConfig.connectTimeout = .seconds(30)
        let watcher = try await SessionClient.connect(memberConfig)
        try await eventually("the watcher is in", saw: { "lobby \(await host.lobby())" }) { await host.lobby().members.count == 2 }
        memberConfig.relay?.endpoint.trustedCertificates = nil
        do {
            _ = try await SessionClient.connect(memberConfig)
            Issue.record("a member that does not trust the school's CA got through")
        } catch {
            #expect("\(error)".lowercased().contains("certificate"), "\(error)")
        }
        await watcher.leave()
        await host.shutdown()
        await trusting.shutdown()
        running.cancel()
        _ = await running.result
        await database.close()
    }

    @Test func aMissingCertificateStopsTheServerBeforeItListens() async throws {
        var configuration = ServerConfiguration()
        configuration.tls = .init(certificateChain: "/nonexistent/server.pem", privateKey: "/nonexistent/server.key")
        let database = try await Backend.sqlite.makeDatabase(clock: .live)
        #expect(throws: (any Error).self) {
            _ = try buildApplication(configuration, dependencies: ServerDependencies(database: database, hasher: testHasher))
        }
        await database.close()
    }

    private func makeCertificates(in dir: String) async throws {
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", "/CN=Teamsketch Test School CA", "-keyout", dir + "/ca.key", "-out", dir + "/ca.pem"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-subj", "/CN=localhost", "-keyout", dir + "/server.key", "-out", dir + "/server.csr"],
            ["x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key",
             "-CAcreateserial", "-days", "2", "-out", dir + "/server.pem",
             "-extfile", dir + "/san.cnf"],
        ]
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: dir + "/san.cnf", atomically: true, encoding: .utf8)
        for step in steps {
            let result = try await run("/usr/bin/openssl", step)
            guard result.status == 0 else { throw TestSetupProblem("openssl \(step[0]): \(result.output)") }
        }
    }

    private func curl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await run("/usr/bin/curl", ["-sS", "--max-time", "10"] + arguments)
    }

    /// curl talks to the server in this very process: waiting for it on a
    /// cooperative thread would take one of the threads the server needs
    /// to answer (`Run.program` waits on a thread of its own).
    private func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await Run.program(tool, arguments, timeout: 60)
        return (result.status, result.stdout + result.stderr)
    }
}
