import Foundation
import LearnModel
import GRDB

extension LocalStore {
    /// Creates an empty sketch. Throws `duplicateSketch` if the id exists.
    /// `origin` says who the school server files it under (a LAN session's
    /// copy names the host's account on every member's laptop alike);
    /// `members` are named at once, before any op, so the server takes this
    /// laptop's ops of a team sketch however its pushes and the host's
    /// interleave.
    public func createSketch(_ meta: SketchMeta, origin: SketchOrigin = .alone(creator: nil),
                             members: [UUID] = []) throws {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            try insertSketch(meta, modifiedAt: now, origin: origin, db)
            try insertOutbox(.sketch, entityId: meta.id.storeKey,
                             payload: SketchChange.create(meta, origin: origin, at: now).encoded(), at: now,
                             opId: SketchOpIdentity.creation(of: meta.id), db)
            try insertMembers(members, of: meta.id, at: now, db)
        }
    }

    /// Tells the school server that these accounts draw in a team sketch
    /// (the host let them in). Each is one change with an id its sketch and
    /// account name, so naming an account twice, here or on a member's
    /// laptop, is the same change.
    public func addMembers(_ accounts: [UUID], to sketchID: UUID) throws {
        guard !accounts.isEmpty else { return }
        try writer.write { db in
            try insertMembers(accounts, of: sketchID, at: StoreTime.milliseconds(clock.now()), db)
        }
    }

    private func insertMembers(_ accounts: [UUID], of sketchID: UUID, at now: Int64, _ db: Database) throws {
        for account in accounts {
            try db.cachedStatement(sql: """
                INSERT INTO outbox (opId, entity, entityId, payload, createdAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (opId) DO NOTHING
                """).execute(arguments: [SketchOpIdentity.member(account, of: sketchID).storeKey,
                                         OutboxEntity.sketch.rawValue, sketchID.storeKey,
                                         try SketchChange.member(account, at: now).encoded(), now])
        }
    }

    /// Appends one op to a sketch's log: the autosave after every finished
    /// stroke. One small transaction (op row, `modifiedAt`, outbox row)
    /// synced to disk (about a millisecond, see docs/PERFORMANCE.md).
    public func append(_ op: SketchOp, to sketchID: UUID) throws {
        try append(contentsOf: [op], to: sketchID)
    }

    /// Appends ops to a sketch's log in one transaction: all of them or,
    /// when it throws, none, so the log never gets a hole. A late joiner's
    /// thousands of missed ops cost one sync to disk instead of one each.
    public func append(contentsOf ops: [SketchOp], to sketchID: UUID) throws {
        guard !ops.isEmpty else { return }
        // Encoded outside the write lock: that is most of the work.
        let rows = try Self.rows(ops, in: sketchID)
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            try db.cachedStatement(sql: "UPDATE sketch SET modifiedAt = ? WHERE id = ? AND deletedAt IS NULL")
                .execute(arguments: [now, sketchID.storeKey])
            guard db.changesCount > 0 else { throw StoreError.sketchNotFound(sketchID) }
            var seq = try nextSeq(sketchID, db)
            for row in rows where try insertOp(row, seq: seq, sketchID: sketchID, at: now, outbox: true, db) {
                seq += 1
            }
        }
    }

    /// How many ops a sketch has stored, counted in SQL (nothing decoded);
    /// nil when there is no such sketch.
    public func opCount(_ sketchID: UUID) throws -> Int? {
        try writer.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM sketch WHERE id = ?", arguments: [sketchID.storeKey]) != nil
            else { return nil }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sketchOp WHERE sketchId = ?",
                                    arguments: [sketchID.storeKey]) ?? 0
        }
    }

    /// Inserts a whole document, e.g. an import: the sketch, its ops in
    /// order, and their outbox rows, in one transaction.
    ///
    /// Never replaces anything: if the id already exists (even deleted),
    /// this throws `duplicateSketch`. Give the document a new id to keep both.
    public func saveSketch(_ doc: SketchDocument) throws {
        let rows = try Self.rows(doc.ops, in: doc.meta.id)
        try writer.write { db in try insertWhole(doc.meta, rows, at: StoreTime.milliseconds(clock.now()), db) }
    }

    /// A new sketch with its ops, all of it waiting for the server.
    func insertWhole(_ meta: SketchMeta, _ rows: [OpRow], at now: Int64, _ db: Database) throws {
        try insertSketch(meta, modifiedAt: now, origin: .alone(creator: nil), db)
        try insertOutbox(.sketch, entityId: meta.id.storeKey, payload: SketchChange.create(meta, at: now).encoded(),
                         at: now, opId: SketchOpIdentity.creation(of: meta.id), db)
        var seq = 1
        for row in rows where try insertOp(row, seq: seq, sketchID: meta.id, at: now, outbox: true, db) {
            seq += 1
        }
    }

    /// The sketch with its ops replayed in order. Throws `sketchNotFound`
    /// for unknown or deleted ids.
    ///
    /// Dates come back rounded to the millisecond, the store's precision.
    public func loadSketch(_ id: UUID) throws -> SketchDocument {
        try writer.read { db in try Self.loadSketch(id, db) }
    }

    static func loadSketch(_ id: UUID, includingDeleted: Bool = false, _ db: Database) throws -> SketchDocument {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sketch WHERE id = ? AND (deletedAt IS NULL OR ?)",
                                         arguments: [id.storeKey, includingDeleted])
        else { throw StoreError.sketchNotFound(id) }
        let meta = SketchMeta(
            id: id, name: row["name"], guides: LineGuides(rawValue: row["guides"]) ?? .none,
            timeLimitMinutes: row["timeLimitMinutes"], width: row["width"], height: row["height"],
            createdAt: StoreTime.date(row["createdAt"]))
        var doc = SketchDocument(meta: meta)
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, payload FROM sketchOp WHERE sketchId = ? ORDER BY seq",
                                       arguments: [id.storeKey])
        while let op = try rows.next() {
            guard let decoded = SketchOpPayload.decode(op["payload"]) else {
                throw StoreError.unreadableOp(sketchID: id, seq: op["seq"])
            }
            doc.apply(decoded)
        }
        return doc
    }

    /// Whether the id is taken, by a live or a deleted sketch: the check to
    /// make before `saveSketch`, since deleted ids are never reused.
    public func hasSketch(_ id: UUID) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM sketch WHERE id = ?", arguments: [id.storeKey]) != nil
        }
    }

    /// All sketches that are not deleted, most recently modified first.
    public func sketches() throws -> [SketchSummary] {
        try writer.read { db in
            try Row.fetchAll(db, sql: Self.summarySQL + " ORDER BY modifiedAt DESC, createdAt DESC, id")
                .map(summary)
        }
    }

    /// The most recently modified sketch with exactly this name, if any:
    /// the one the sketch list shows first (used by `export NAME out.png`).
    public func findSketch(named name: String) throws -> SketchSummary? {
        try writer.read { db in
            try Row.fetchOne(db, sql: Self.summarySQL + " AND name = ? ORDER BY modifiedAt DESC, createdAt DESC, id LIMIT 1",
                             arguments: [name])
                .map(summary)
        }
    }

    /// Stores a PNG preview for the sketch list. It does not change
    /// `modifiedAt`: regenerating a preview should not reorder the list.
    /// Nothing goes to the outbox: a preview is drawn from the ops, here
    /// and on the server alike, and one every few seconds of drawing would
    /// only fill every device's pulls.
    public func setThumbnail(_ png: Data, for id: UUID) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE sketch SET thumbnail = ? WHERE id = ? AND deletedAt IS NULL",
                           arguments: [png, id.storeKey])
            guard db.changesCount > 0 else { throw StoreError.sketchNotFound(id) }
        }
    }

    public func rename(_ id: UUID, to name: String) throws {
        try updateSketch(id, change: { SketchChange.rename(name, at: $0) },
                         sql: "UPDATE sketch SET name = ?, modifiedAt = ? WHERE id = ? AND deletedAt IS NULL",
                         arguments: { now in [name, now, id.storeKey] })
    }

    /// Marks the sketch deleted (a tombstone, so sync can delete it
    /// elsewhere too). It disappears from `sketches()` and `loadSketch`.
    /// Deleting a deleted sketch does nothing.
    public func deleteSketch(_ id: UUID) throws {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            guard let row = try Row.fetchOne(db, sql: "SELECT deletedAt FROM sketch WHERE id = ?", arguments: [id.storeKey])
            else { throw StoreError.sketchNotFound(id) }
            guard (row["deletedAt"] as Int64?) == nil else { return }
            try db.execute(sql: "UPDATE sketch SET deletedAt = ? WHERE id = ?", arguments: [now, id.storeKey])
            try insertOutbox(.sketch, entityId: id.storeKey, payload: SketchChange.delete(at: now).encoded(), at: now, db)
        }
    }

    // MARK: - Rows

    private static let summarySQL = """
        SELECT id, name, guides, createdAt, modifiedAt, thumbnail, team, creatorId,
               (SELECT COUNT(*) FROM sketchOp WHERE sketchId = sketch.id) AS opCount
        FROM sketch WHERE deletedAt IS NULL
        """

    private func summary(_ row: Row) throws -> SketchSummary {
        let text: String = row["id"]
        guard let id = UUID(text: text) else {
            throw StoreError.corrupt(path: path ?? ":memory:")
        }
        return SketchSummary(id: id, name: row["name"], guides: LineGuides(rawValue: row["guides"]) ?? .none,
                             createdAt: StoreTime.date(row["createdAt"]), modifiedAt: StoreTime.date(row["modifiedAt"]),
                             opCount: row["opCount"], thumbnail: row["thumbnail"],
                             startedBy: row["team"] ? .team(host: (row["creatorId"] as String?).flatMap(UUID.init(text:)))
                                                    : .alone)
    }

    private func insertSketch(_ meta: SketchMeta, modifiedAt: Int64, origin: SketchOrigin, _ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM sketch WHERE id = ?", arguments: [meta.id.storeKey]) != nil {
            throw StoreError.duplicateSketch(meta.id)
        }
        try Self.insertSketchRow(meta, createdAt: StoreTime.milliseconds(meta.createdAt), modifiedAt: modifiedAt,
                                 team: origin.isTeam, creator: origin.isTeam ? origin.creator : nil, db)
    }

    static func insertSketchRow(_ meta: SketchMeta, createdAt: Int64, modifiedAt: Int64, team: Bool, creator: UUID?,
                                _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sketch (id, name, guides, timeLimitMinutes, width, height, createdAt, modifiedAt, team, creatorId)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [meta.id.storeKey, meta.name, meta.guides.rawValue, meta.timeLimitMinutes,
                             meta.width, meta.height, createdAt, modifiedAt, team, creator?.storeKey])
    }

    /// An op ready to store: its id (the same on every device, see
    /// `SketchOpIdentity`), kind and encoding.
    struct OpRow {
        var opId: UUID
        var kind: SketchOpPayload.Kind
        var payload: Data
    }

    static func rows(_ ops: [SketchOp], in sketchID: UUID) throws -> [OpRow] {
        try ops.map { OpRow(opId: SketchOpIdentity.id(of: $0, in: sketchID), kind: SketchOpPayload.kind(of: $0),
                            payload: try SketchOpPayload.encode($0)) }
    }

    func nextSeq(_ sketchID: UUID, _ db: Database) throws -> Int {
        try (Int.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM sketchOp WHERE sketchId = ?"),
                          arguments: [sketchID.storeKey]) ?? 0) + 1
    }

    /// Stores an op at `seq` unless an op of that id is stored already (the
    /// same stroke appended twice, or pulled after it was drawn here): the
    /// log keeps each op once. Returns whether it was stored. `outbox`:
    /// whether the server still has to hear of it (not for pulled ops).
    func insertOp(_ row: OpRow, seq: Int, sketchID: UUID, at now: Int64, outbox: Bool, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO sketchOp (sketchId, seq, opId, kind, payload, createdAt) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (opId) DO NOTHING
            """).execute(arguments: [sketchID.storeKey, seq, row.opId.storeKey, row.kind.rawValue, row.payload, now])
        guard db.changesCount > 0 else { return false }
        if outbox {
            try insertOutbox(.sketchOp, entityId: sketchID.storeKey, payload: row.payload, at: now, opId: row.opId, db)
        }
        return true
    }

    /// One UPDATE of a live sketch plus its outbox row.
    private func updateSketch(_ id: UUID, change: (Int64) -> SketchChange, sql: String,
                              arguments: (Int64) -> StatementArguments) throws {
        try writer.write { db in
            let now = StoreTime.milliseconds(clock.now())
            try db.execute(sql: sql, arguments: arguments(now))
            guard db.changesCount > 0 else { throw StoreError.sketchNotFound(id) }
            try insertOutbox(.sketch, entityId: id.storeKey, payload: change(now).encoded(), at: now, db)
        }
    }
}

/// UUIDs are stored as lowercase text: readable in the sqlite3 shell and the
/// same spelling the server and payloads use.
extension UUID {
    var storeKey: String { lowercasedText }
}
