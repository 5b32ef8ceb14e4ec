import Foundation
import LearnModel
import GRDB

extension LocalStore {
    /// Number of changes not yet pushed to the server.
    public func outboxCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    /// The oldest pending changes, in the order they were made.
    public func pendingOutbox(limit: Int = 100) throws -> [OutboxEntry] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY rowid LIMIT ?", arguments: [limit]).map { row in
                guard let opId = UUID(text: row["opId"]),
                      let entity = OutboxEntity(rawValue: row["entity"])
                else { throw StoreError.corrupt(path: path ?? ":memory:") }
                return OutboxEntry(opId: opId, entity: entity, entityId: row["entityId"],
                                   payload: row["payload"], createdAt: StoreTime.date(row["createdAt"]))
            }
        }
    }

    /// Must run inside the transaction of the change it records, so the
    /// outbox's row order is the order the changes were committed in. A
    /// change without an id of its own (`SketchOpIdentity`) gets a UUIDv7.
    func insertOutbox(_ entity: OutboxEntity, entityId: String, payload: Data, at now: Int64,
                      opId: UUID? = nil, _ db: Database) throws {
        let id = opId ?? ids.next()
        try db.cachedStatement(sql: "INSERT INTO outbox (opId, entity, entityId, payload, createdAt) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [id.storeKey, entity.rawValue, entityId, payload, now])
    }
}
