import ArgumentParser
import Foundation
import Testing
@testable import SchoolServer
@testable import TeamsketchServer

/// /etc/teamsketch/server.conf: every option of `serve`, one per line,
/// the command line winning, a typo stopping the server with its line.
@Suite struct ServerConfigFileTests {
    static let file = """
        # The school's server
        data-dir = /var/lib/teamsketch-server
        database = "postgres://teamsketch@/teamsketch?host=/run/postgresql"
        database-password-file = /etc/teamsketch/pgpassword
        host = 10.0.0.5
        port = 8471
        tls-certificate = /etc/ssl/teamsketch.pem
        tls-key = /etc/ssl/private/teamsketch.key
        no-announce = yes
        trusted-proxy = 10.0.0.1
        trusted-proxy = 10.0.0.2
        max-connections-per-address = 400
        quota-mib-per-day = 64
        quota-mib-in-all = 2048
        relay-address = http://10.0.0.5:8471
        metrics-token-file = /etc/teamsketch/metrics-token
        """

    func parsed(_ arguments: [String], file: String = Self.file) throws -> any ParsableCommand {
        try ServerCommand.parseAsRoot(try ServerConfigFile.expand(arguments) { path in
            #expect(path == "/etc/teamsketch/server.conf")
            return file
        })
    }

    @Test func everyOptionOfTheFileReachesTheServer() throws {
        let serve = try #require(try parsed(["--config", "/etc/teamsketch/server.conf"]) as? Serve)
        #expect(serve.data.dataDir == "/var/lib/teamsketch-server")
        #expect(serve.data.database == "postgres://teamsketch@/teamsketch?host=/run/postgresql")
        #expect(serve.data.databasePasswordFile == "/etc/teamsketch/pgpassword")
        #expect(serve.host == "10.0.0.5")
        #expect(serve.port == 8471)
        #expect(serve.tlsCertificate == "/etc/ssl/teamsketch.pem")
        #expect(serve.tlsKey == "/etc/ssl/private/teamsketch.key")
        #expect(serve.noAnnounce)
        #expect(serve.trustedProxy == ["10.0.0.1", "10.0.0.2"])
        #expect(serve.maxConnectionsPerAddress == 400)
        #expect(serve.quotaMibPerDay == 64)
        #expect(serve.quotaMibInAll == 2048)
        #expect(serve.relayAddress == "http://10.0.0.5:8471")
        #expect(serve.metricsTokenFile == "/etc/teamsketch/metrics-token")
    }

    @Test func theCommandLineWins() throws {
        let serve = try #require(try parsed(["serve", "--port", "9000", "--config=/etc/teamsketch/server.conf"]) as? Serve)
        #expect(serve.port == 9000)
        #expect(serve.host == "10.0.0.5")
        let off = try #require(try parsed(["--config", "/etc/teamsketch/server.conf"], file: "no-announce = false") as? Serve)
        #expect(!off.noAnnounce)
        // A file saved on Windows reads the same.
        let crlf = try #require(try parsed(["--config", "/etc/teamsketch/server.conf"], file: "port = 1\r\nhost = ::1\r\n") as? Serve)
        #expect(crlf.port == 1 && crlf.host == "::1")
    }

    /// `backup` reads where the data is and ignores the rest of the file.
    @Test func aBackupTakesTheDatabaseFromTheFile() throws {
        let backup = try #require(try parsed(["backup", "--config", "/etc/teamsketch/server.conf", "/srv/backup.sqlite"]) as? Backup)
        #expect(backup.data.database == "postgres://teamsketch@/teamsketch?host=/run/postgresql")
        #expect(backup.file == "/srv/backup.sqlite")
    }

    @Test(arguments: [
        ("prot = 8470", "line 1: the server has no option \"prot\""),
        ("\n\nport 8470", "line 3: write name = value"),
        ("port = 1\nport = 2", "line 2: \"port\" is given twice"),
        ("no-announce = maybe", "line 1: no-announce is true or false"),
        ("host =", "line 1: host needs a value"),
    ])
    func aMistakeNamesItsLine(_ text: String, _ said: String) throws {
        let problem = #expect(throws: ServerConfigFile.Problem.self) { try parsed(["--config", "/etc/teamsketch/server.conf"], file: text) }
        #expect(problem?.description.contains("/etc/teamsketch/server.conf, " + said) == true, "\(String(describing: problem))")
    }

    /// Every option `serve --help` shows can be written in the file.
    @Test func theFileKnowsEveryOptionOfServe() throws {
        let help = Serve.helpMessage(columns: 1000)
        let named = Set(help.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
        #expect(named.subtracting(["help", "config"]) == Set(ServerConfigFile.serveKeys.keys))
    }

    @Test func aLargeOrBinaryFileIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.conf").path
        try Data(repeating: 0x23, count: ServerConfigFile.maxBytes + 1).write(to: URL(fileURLWithPath: big))
        #expect(throws: ServerConfigFile.Problem.self) { try ServerConfigFile.read(big) }
        let binary = folder.appendingPathComponent("binary.conf").path
        try Data([0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: ServerConfigFile.Problem.self) { try ServerConfigFile.read(binary) }
        #expect(throws: ServerConfigFile.Problem.self) { try ServerConfigFile.read(folder.appendingPathComponent("none").path) }
    }

    /// The PostgreSQL password comes from a file, never the command line:
    /// the named one first, then systemd's credential.
    @Test func thePasswordComesFromAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "from-systemd\n".write(to: folder.appendingPathComponent("pgpassword"), atomically: true, encoding: .utf8)
        let named = folder.appendingPathComponent("named").path
        try "named-secret\r\nsecond line".write(toFile: named, atomically: true, encoding: .utf8)

        func password(_ arguments: [String], environment: [String: String]) throws -> String? {
            let options = try DatabaseOptions.parse(arguments)
            guard case .postgres(let postgres) = try options.location(environment: environment) else { return "sqlite" }
            return postgres.password
        }
        let url = "postgres://teamsketch@localhost/teamsketch"
        let systemd = ["CREDENTIALS_DIRECTORY": folder.path]
        #expect(try password(["--database", url], environment: systemd) == "from-systemd")
        #expect(try password(["--database", url, "--database-password-file", named], environment: systemd) == "named-secret")
        #expect(try password(["--database", url], environment: [:]) == nil)
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data().write(to: empty.appendingPathComponent("pgpassword"))
        #expect(try password(["--database", url], environment: ["CREDENTIALS_DIRECTORY": empty.path]) == nil)
        #expect(try password(["--database", "postgres://teamsketch:inline@localhost/teamsketch"], environment: systemd) == "inline")
        #expect(throws: ValidationError.self) {
            try password(["--database", url, "--database-password-file", folder.appendingPathComponent("none").path], environment: [:])
        }
    }
}
