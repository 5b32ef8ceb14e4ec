import Foundation
import Logging
import NIOSSL
import PostgresNIO

extension DatabaseLocation {
    /// Opens the database and (unless told not to, for a maintenance
    /// connection) brings its schema up to date.
    public func open(logger: Logger, clock: ServerClock = .live, migrating: Bool = true) async throws -> any ServerDatabase {
        let db: any ServerDatabase
        switch self {
        case .sqlite(let path):
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            db = try SQLiteDatabase(path: path)
        case .postgres(let location):
            var configuration: PostgresClient.Configuration
            let password = location.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
            if let socket = location.socketPath {
                configuration = .init(unixSocketPath: socket, username: location.user,
                                      password: password, database: location.database)
            } else {
                configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.user,
                                      password: password, database: location.database, tls: try Self.tls(location.tls))
            }
            configuration.options.connectTimeout = .seconds(5)
            db = PostgresDatabase(configuration: configuration, logger: logger)
        }
        do {
            if migrating { try await Migrations.apply(to: db, now: clock.now()) }
        } catch {
            await db.close()
            throw error
        }
        return db
    }

    /// What the health endpoint reports.
    public var dialect: SQLDialect {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgresql
        }
    }

    /// `require` encrypts without checking who answers (libpq's meaning);
    /// `verify-full` checks the certificate and the host name.
    private static func tls(_ mode: TLSMode) throws -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable:
            return .disable
        case .require:
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            return .require(tls)
        case .verifyFull(let roots):
            var tls = TLSConfiguration.makeClientConfiguration()
            if let roots { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(roots)) }
            return .require(tls)
        }
    }
}
