import Foundation

/// Where the server keeps its data, from `--database`: a file path (or
/// `sqlite:PATH`) for SQLite, or a `postgres://` URL. For PostgreSQL over a
/// Unix socket, give the socket's folder as `host`:
/// `postgres://teamsketch@/teamsketch?host=/run/postgresql&port=5432`.
/// Over the network, `?sslmode=require` encrypts (like libpq's, without
/// checking the certificate) and `?sslmode=verify-full` also checks it,
/// against `sslrootcert=FILE` or the system's authorities. A password left
/// out of the URL is taken from PGPASSWORD, so it need not show in `ps`.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    public struct PostgresLocation: Sendable, Equatable {
        public var host: String?
        public var socketPath: String?
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String?
        public var tls: TLSMode = .disable
    }

    public enum TLSMode: Sendable, Equatable {
        case disable
        case require
        case verifyFull(rootCertificates: String?)
    }

    public init(_ text: String) throws(DatabaseProblem) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try Self.postgres(text))
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else if text.contains("://") {
            throw .badURL("only file paths, sqlite: and postgres:// addresses are known")
        } else {
            self = .sqlite(path: text)
        }
    }

    private static func postgres(_ text: String) throws(DatabaseProblem) -> PostgresLocation {
        guard let url = URLComponents(string: text) else { throw .badURL("not a URL") }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let port = url.port ?? query["port"].flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else { throw .badURL("the port must be 1–65535") }
        let host = url.host.flatMap { $0.isEmpty ? nil : $0 }
        var socketPath: String?
        if let folder = query["host"], folder.hasPrefix("/") {
            socketPath = folder + "/.s.PGSQL.\(port)"
        }
        guard host != nil || socketPath != nil else { throw .badURL("give a host, or a socket folder as ?host=/path") }
        guard let user = url.user, !user.isEmpty else { throw .badURL("give a user name") }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let tls: TLSMode
        switch query["sslmode"] ?? "disable" {
        case "disable": tls = .disable
        case "require": tls = .require
        case "verify-full": tls = .verifyFull(rootCertificates: query["sslrootcert"])
        default: throw .badURL("sslmode is disable, require or verify-full")
        }
        guard tls == .disable || socketPath == nil else { throw .badURL("a Unix socket takes no sslmode") }
        return PostgresLocation(host: host, socketPath: socketPath, port: port, user: user,
                                password: url.password, database: database.isEmpty ? nil : database, tls: tls)
    }
}
