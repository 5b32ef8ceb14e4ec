import Foundation
import Logging
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
            if let socket = location.socketPath {
                configuration = .init(unixSocketPath: socket, username: location.user,
                                      password: location.password, database: location.database)
            } else {
                configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.user,
                                      password: location.password, database: location.database, tls: .disable)
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
}
