import Foundation
import LearnModel

/// The relayed sessions in the server's database, so that every server
/// process behind one address lists the same sessions and knows which
/// process holds each one's host. Only SQL lives here; `RelayRoutes`
/// decides who may.
struct RelayListingStore: Sendable {
    let db: any ServerDatabase

    /// A row whose heartbeat is older than this is a process that died (or
    /// lost its database) with the session: not listed, and its host may
    /// register the id again at any process.
    static let staleAfterMs: Int64 = 60_000
    /// At most this many live sessions per host account, over all processes:
    /// a pupil's script cannot fill the class's listing.
    static let maxLivePerHost = 4

    struct Row: Sendable, Equatable {
        var id: UUID
        var classID: UUID
        var name: String
        var activity: String
        var hostID: UUID
        var hostName: String
        var ownerAddress: String
        var registration: UUID
        var registeredAt: Int64
        var heartbeatAt: Int64
        var endedAt: Int64?
        /// The session's LAN id as its host gave it (none from older apps).
        var lanSessionID: UUID?

        func isLive(now: Int64) -> Bool { endedAt == nil && heartbeatAt > now - RelayListingStore.staleAfterMs }
    }

    enum Claim: Sendable, Equatable {
        case claimed
        /// The id is (or was) another account's.
        case taken
        /// The host has `maxLivePerHost` live sessions already.
        case tooMany
    }

    private static let columns = """
        id, classId, name, activity, hostId, hostName, ownerAddress, registration, registeredAt, heartbeatAt, endedAt,
        lanSessionId
        """

    /// Lists a session (again) with this process as its owner. The count
    /// and the write are one statement, and on PostgreSQL the host's
    /// claims take turns (an advisory lock on the host's id), so two
    /// processes registering the same host at once cannot both pass the cap.
    /// SQLite runs one writing transaction at a time anyway.
    func claim(_ row: Row) async throws -> Claim {
        var statements: [SQLStatement] = []
        if db.dialect == .postgresql {
            statements.append(SQLStatement("SELECT pg_advisory_xact_lock(hashtext(?))", [.text("relay:" + row.hostID.key)]))
        }
        // `WHERE` in the SELECT also keeps SQLite from reading ON CONFLICT
        // as a join's ON.
        statements.append(SQLStatement("""
            INSERT INTO relaySession (\(Self.columns))
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(NULL AS BIGINT), ?
            WHERE (SELECT COUNT(*) FROM relaySession
                   WHERE hostId = ? AND id <> ? AND endedAt IS NULL AND heartbeatAt > ?) < ?
            ON CONFLICT (id) DO UPDATE SET
                classId = excluded.classId, name = excluded.name, activity = excluded.activity,
                hostName = excluded.hostName, ownerAddress = excluded.ownerAddress,
                registration = excluded.registration, registeredAt = excluded.registeredAt,
                heartbeatAt = excluded.heartbeatAt, endedAt = NULL, lanSessionId = excluded.lanSessionId
            WHERE relaySession.hostId = excluded.hostId
            RETURNING id
            """, [.text(row.id.key), .text(row.classID.key), .text(row.name), .text(row.activity),
                  .text(row.hostID.key), .text(row.hostName), .text(row.ownerAddress), .text(row.registration.key),
                  .int(row.registeredAt), .int(row.heartbeatAt), row.lanSessionID.map { .text($0.key) } ?? .null,
                  .text(row.hostID.key), .text(row.id.key), .int(row.heartbeatAt - Self.staleAfterMs),
                  .int(Int64(Self.maxLivePerHost))]))
        let results = try await db.transaction(statements)
        if results.last?.isEmpty == false { return .claimed }
        // Nothing written: either the id is another account's, or the cap.
        if let existing = try await session(row.id), existing.hostID != row.hostID { return .taken }
        return .tooMany
    }

    /// Keeps a registration listed; false when the row is no longer this
    /// registration's (the host registered again, maybe at another process).
    func heartbeat(_ id: UUID, registration: UUID, now: Int64) async throws -> Bool {
        let rows = try await db.execute(
            "UPDATE relaySession SET heartbeatAt = ? WHERE id = ? AND registration = ? AND endedAt IS NULL RETURNING id",
            [.int(now), .text(id.key), .text(registration.key)])
        return !rows.isEmpty
    }

    /// The host's control socket closed. A newer registration of the same
    /// id (elsewhere) is left alone.
    func end(_ id: UUID, registration: UUID, now: Int64) async throws {
        try await db.execute("UPDATE relaySession SET endedAt = ? WHERE id = ? AND registration = ? AND endedAt IS NULL",
                             [.int(now), .text(id.key), .text(registration.key)])
    }

    /// The row of a session id, live, ended or stale.
    func session(_ id: UUID) async throws -> Row? {
        try await db.query("SELECT \(Self.columns) FROM relaySession WHERE id = ?", [.text(id.key)])
            .first.map(Self.row)
    }

    /// Live sessions of these classes, oldest first.
    func live(classes: Set<UUID>, now: Int64) async throws -> [Row] {
        guard !classes.isEmpty else { return [] }
        let marks = SQLStatement.placeholders(classes.count)
        return try await db.query("""
            SELECT \(Self.columns) FROM relaySession
            WHERE classId IN (\(marks)) AND endedAt IS NULL AND heartbeatAt > ?
            ORDER BY registeredAt, id
            """, classes.map { .text($0.key) } + [.int(now - Self.staleAfterMs)]).map(Self.row)
    }

    /// How many live sessions the host has, leaving out `except` (its own
    /// id registered again does not count twice).
    func liveCount(host: UUID, except: UUID, now: Int64) async throws -> Int {
        let rows = try await db.query("""
            SELECT id FROM relaySession WHERE hostId = ? AND id <> ? AND endedAt IS NULL AND heartbeatAt > ?
            """, [.text(host.key), .text(except.key), .int(now - Self.staleAfterMs)])
        return rows.count
    }

    private static func row(_ row: SQLRow) throws -> Row {
        Row(id: try row.uuid("id"), classID: try row.uuid("classId"), name: try row.text("name"),
            activity: try row.text("activity"), hostID: try row.uuid("hostId"), hostName: try row.text("hostName"),
            ownerAddress: try row.text("ownerAddress"), registration: try row.uuid("registration"),
            registeredAt: try row.int("registeredAt"), heartbeatAt: try row.int("heartbeatAt"),
            endedAt: row["endedAt"].int, lanSessionID: row["lanSessionId"].text.flatMap(UUID.init(text:)))
    }
}
