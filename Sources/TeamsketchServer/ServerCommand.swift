import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SchoolServer
import ServerAnnouncer

@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "TeamsketchServer",
        abstract: "The Teamsketch school server: accounts, classes and sync for the desktops.",
        subcommands: [Serve.self, CreateTeacher.self, Backup.self, Restore.self, MigrateTo.self],
        defaultSubcommand: Serve.self)

    /// As ArgumentParser's own, with `--config FILE` read first
    /// (`ServerConfigFile`).
    static func main() async {
        do {
            let arguments = try ServerConfigFile.expand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let problem as ServerConfigFile.Problem {
            exit(withError: ValidationError(problem.description))
        } catch {
            exit(withError: error)
        }
    }
}

/// Where the data lives; shared by every subcommand.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A folder for the SQLite database (used when --database is not given).")
    var dataDir = "teamsketch-server-data"

    @Option(help: "A SQLite file path, or postgres://user@host:port/database (or ?host=/socket/folder).")
    var database: String?

    @Option(help: """
        A file holding the PostgreSQL password, when --database names none. Under systemd a credential \
        named pgpassword (LoadCredential=) is read without this; PGPASSWORD is the last resort.
        """)
    var databasePasswordFile: String?

    @Option(help: "A file of options, one `name = value` per line (e.g. /etc/teamsketch/server.conf); the command line wins.")
    var config: String?

    func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseLocation {
        var location: DatabaseLocation
        do {
            location = try DatabaseLocation(database ?? (dataDir + "/teamsketch.sqlite"))
        } catch {
            throw ValidationError(error.description)
        }
        if case .postgres(var postgres) = location, postgres.password == nil {
            // Read from a file so that it is never in `ps` or the unit.
            // The package ships the password file empty: empty means none.
            let credential = environment["CREDENTIALS_DIRECTORY"].map { $0 + "/pgpassword" }.flatMap {
                ((try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0) > 0 ? $0 : nil
            }
            if let file = databasePasswordFile ?? credential {
                postgres.password = try Self.password(in: file)
                location = .postgres(postgres)
            }
        }
        return location
    }

    /// The first line of the file: what `echo secret > file` leaves.
    static func password(in path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ValidationError("--database-password-file: cannot read \(path).")
        }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: 4096)) ?? nil ?? Data()
        let password = String(String(decoding: bytes, as: UTF8.self).prefix { !$0.isNewline })
        guard !password.isEmpty else { throw ValidationError("--database-password-file: \(path) is empty.") }
        return password
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (the default).")

    @OptionGroup var data: DatabaseOptions

    @Option(help: "The address to listen on.")
    var host = "0.0.0.0"

    @Option(help: "The TCP port (0 picks a free one).")
    var port = 8470

    @Option(help: "Serve HTTPS with this certificate chain (PEM); needs --tls-key.")
    var tlsCertificate: String?

    @Option(help: "The private key (PEM) of --tls-certificate.")
    var tlsKey: String?

    @Flag(help: "Do not announce the server on the LAN (DNS-SD _teamsketch-server._tcp through avahi-daemon).")
    var noAnnounce = false

    @Option(help: "A reverse proxy's address whose X-Forwarded-For names the client (repeat for several).")
    var trustedProxy: [String] = []

    @Option(help: "Connections one address may hold open (raise it when a whole school reaches the server through one NAT address).")
    var maxConnectionsPerAddress = HTTPLimits().maxConnectionsPerAddress

    @Option(help: "MiB one account may send a day (UTC); past it its devices keep their changes until the next day.")
    var quotaMibPerDay = Int(AccountQuota().bytesPerDay >> 20)

    @Option(help: "MiB one account may store in all.")
    var quotaMibInAll = Int(AccountQuota().bytesInAll >> 20)

    @Option(help: """
        Where the other server processes sharing the database reach this one, e.g. http://10.0.0.5:8470 \
        (a relayed session lives in the process its host is connected to). Default: the bound address and port, \
        loopback when listening on every address.
        """)
    var relayAddress: String?

    @Option(help: """
        A file holding the secret that opens GET /metrics (Prometheus), at least 16 characters, \
        e.g. made by `openssl rand -hex 24`. Without it the server has no metrics page.
        """)
    var metricsTokenFile: String?

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together.")
        }
        if let relayAddress {
            guard let url = URLComponents(string: relayAddress), ["http", "https"].contains(url.scheme ?? ""),
                  url.host?.isEmpty == false, url.path.isEmpty || url.path == "/" else {
                throw ValidationError("--relay-address is http(s)://host:port, without a path.")
            }
        }
    }

    func run() async throws {
        let journal = JournalLogHandler.standardErrorIsJournal()
        LoggingSystem.bootstrap { label in
            journal ? JournalLogHandler() as any LogHandler : StreamLogHandler.standardError(label: label)
        }
        var logger = Logger(label: "teamsketch-server")
        logger.logLevel = .info
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.database = try data.location()
        configuration.trustedProxies = Set(trustedProxy)
        guard (1...configuration.limits.maxConnections).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address is 1 to \(configuration.limits.maxConnections).")
        }
        configuration.limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        // Up to a TiB: beyond, the figures are no guard at all.
        for (flag, mib) in [("--quota-mib-per-day", quotaMibPerDay), ("--quota-mib-in-all", quotaMibInAll)]
        where !(1...(1 << 20)).contains(mib) {
            throw ValidationError("\(flag) is 1 to 1048576.")
        }
        configuration.quota.bytesPerDay = Int64(quotaMibPerDay) << 20
        configuration.quota.bytesInAll = Int64(quotaMibInAll) << 20
        configuration.relayAddress = relayAddress
        if let metricsTokenFile {
            configuration.metricsToken = try Self.metricsToken(in: metricsTokenFile)
        }
        if let tlsCertificate, let tlsKey {
            configuration.tls = .init(certificateChain: tlsCertificate, privateKey: tlsKey)
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let database = try await configuration.database.open(logger: logger)
        let dialect = configuration.database.dialect
        // Announced only once listening, on the port actually bound (--port 0).
        let announcer = noAnnounce ? nil : ServerAnnouncer(logger: logger)
        let tls = configuration.tls != nil
        let stop = ServerStop()
        let manager = ServiceManagerNotice()
        let app = try buildApplication(configuration, dependencies: ServerDependencies(database: database),
                                       logger: logger, stop: stop) { port in
            let listening = "listening on \(scheme)://\(host):\(port)/api/v1 (\(dialect.rawValue))"
            print("Teamsketch server \(listening)")
            for address in TypedAddresses.current(host: host, port: port, tls: tls) {
                print("Type this address in the app: \(address)")
            }
            fflush(nil)
            announcer?.start(.init(port: port, tls: tls, host: host))
            manager.send(ServiceManagerNotice.ready, ServiceManagerNotice.status(listening))
        }
        do {
            try await stop.run(app, logger: logger) {
                manager.send(ServiceManagerNotice.stopping)
                // Off the LAN first: no desktop should find a server going.
                announcer?.stop()
            }
        } catch {
            announcer?.stop()
            await database.close()
            throw error
        }
        announcer?.stop()
        await database.close()
        logger.info("stopped")
    }
}

extension Serve {
    /// The token from its file: read here, so it is never on a command
    /// line another user's `ps` shows.
    static func metricsToken(in path: String) throws -> MetricsToken {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ValidationError("--metrics-token-file: cannot read \(path).")
        }
        defer { try? handle.close() }
        // A token is a line; 4 KiB is more than any.
        let bytes = (try? handle.read(upToCount: 4096)) ?? nil
        do {
            return try MetricsToken(String(decoding: bytes ?? Data(), as: UTF8.self))
        } catch {
            throw ValidationError("--metrics-token-file: \(error).")
        }
    }
}

/// `backup FILE`: a copy of the SQLite database to trust, made while the
/// server runs (`SQLiteBackup`).
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database to FILE while the server runs (SQLite; for PostgreSQL use pg_dump, see docs/OPERATIONS.md).")

    @OptionGroup var data: DatabaseOptions

    @Argument(help: "The new file to write; an existing one is not overwritten.")
    var file: String

    func run() throws {
        let path = try data.sqlitePath(else: "backed up with pg_dump")
        let version = try SQLiteBackup.said { try SQLiteBackup.copy(from: path, to: file) }
        print("Backed up \(path) to \(file) (schema \(version)).")
    }
}

/// `restore FILE`: a backup put back where the database is to be, which
/// must not exist yet: the server is stopped and its file moved aside first.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup made by `backup` back as the database (stop the server and move the old file aside first).")

    @OptionGroup var data: DatabaseOptions

    @Argument(help: "The backup to restore.")
    var file: String

    func run() throws {
        let path = try data.sqlitePath(else: "restored with pg_restore")
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let version = try SQLiteBackup.said { try SQLiteBackup.restore(from: file, to: path) }
        try DataOwner.of(sqlite: path)?.take(path)
        print("Restored \(file) to \(path) (schema \(version)); start the server on it.")
    }
}

/// `migrate-to postgres://…`: the school's SQLite database copied into an
/// empty PostgreSQL database (`SQLiteToPostgres`), for a school that
/// outgrew one file. The server is stopped first; afterwards its
/// configuration names the new database.
struct MigrateTo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-to",
        abstract: "Copy the SQLite database into an empty PostgreSQL database (stop the server first; see docs/OPERATIONS.md).")

    @OptionGroup var data: DatabaseOptions

    @Argument(help: "The empty PostgreSQL database: postgres://user@host:port/database (or ?host=/socket/folder).")
    var target: String

    @Option(help: "A file holding the target's password, when the address names none (else PGPASSWORD).")
    var targetPasswordFile: String?

    func run() async throws {
        let path = try data.sqlitePath(else: "already PostgreSQL")
        guard case .postgres(var postgres) = try? DatabaseLocation(target) else {
            throw ValidationError("migrate-to takes a postgres:// address.")
        }
        if postgres.password == nil, let file = targetPasswordFile {
            postgres.password = try DatabaseOptions.password(in: file)
        }
        // Opening the file may bring its schema up to date: as the server would.
        try DataOwner.of(sqlite: path)?.become()
        let logger = Logger(label: "teamsketch-server")
        let source = try await DatabaseLocation.sqlite(path: path).open(logger: logger)
        let destination: any ServerDatabase
        do {
            destination = try await DatabaseLocation.postgres(postgres).open(logger: logger)
        } catch {
            await source.close()
            throw error
        }
        let outcome: Result<[String: Int64], any Error>
        do {
            outcome = .success(try await SQLiteToPostgres.copy(from: source, to: destination) { table, rows in
                print("\(table): \(rows) rows")
            })
        } catch {
            outcome = .failure(error)
        }
        await destination.close()
        await source.close()
        let copied: [String: Int64]
        do {
            copied = try outcome.get()
        } catch let refusal as SQLiteToPostgres.Refusal {
            throw ValidationError(refusal.description + ".")
        }
        print("Copied \(copied.values.reduce(0, +)) rows of \(copied.count) tables from \(path).")
        print("Now name the new database in the server's configuration (database = \(target)) and start it.")
    }
}

extension DatabaseOptions {
    /// The SQLite file a backup command works on; PostgreSQL has its own tools.
    func sqlitePath(else postgresTool: String) throws -> String {
        guard case .sqlite(let path) = try location() else {
            throw ValidationError("A PostgreSQL database is \(postgresTool) (docs/OPERATIONS.md).")
        }
        return path
    }
}

extension SQLiteBackup {
    /// A refusal as the command line says it.
    static func said<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as SQLiteBackup.Refusal {
            throw ValidationError(refusal.description + ".")
        }
    }
}

struct CreateTeacher: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-teacher",
        abstract: "Make a teacher's account; the password is asked for, or read from standard input.")

    @OptionGroup var data: DatabaseOptions

    @Argument(help: "The teacher's name, as they will type it to sign in.")
    var name: String

    func run() async throws {
        guard let person = PersonName(name) else {
            throw ValidationError("A name needs 1–\(PersonName.maxCharacters) visible characters.")
        }
        let password = try readPassword()
        if case .sqlite(let path) = try data.location() { try DataOwner.of(sqlite: path)?.become() }
        let logger = Logger(label: "teamsketch-server")
        let database = try await data.location().open(logger: logger)
        let result: AccountStore.CreateResult
        do {
            result = try await Accounts.createTeacher(person, password: password, database: database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        switch result {
        case .created(let account):
            print("Teacher \(account.name) created.")
        case .nameTaken:
            throw ValidationError("There is already a teacher called \(person.text).")
        case .schoolFull:
            throw ValidationError("The school has \(AccountStore.maxTeachers) teachers, the most it may have.")
        }
    }

    private func readPassword() throws -> String {
        let typed: String?
        if isatty(STDIN_FILENO) != 0 {
            typed = getpass("Password for \(name): ").map { String(cString: $0) }
        } else {
            typed = readLine(strippingNewline: true)
        }
        guard let password = typed, Accounts.isAcceptablePassword(password) else {
            throw ValidationError("A password needs \(Accounts.minPasswordLength)–\(Accounts.maxPasswordLength) characters.")
        }
        return password
    }
}
