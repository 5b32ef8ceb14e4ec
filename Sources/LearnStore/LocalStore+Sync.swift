import Foundation
import GRDB
import LearnModel

/// A change pulled from the school server: another device's (or this
/// one's, coming back), in the server's order.
public struct RemoteChange: Hashable, Sendable {
    public var seq: Int64
    public var opId: UUID
    public var entity: OutboxEntity
    public var entityId: String
    /// JSON, as the device that made the change wrote it.
    public var payload: Data
    public var createdAt: Date

    public init(seq: Int64, opId: UUID, entity: OutboxEntity, entityId: String, payload: Data, createdAt: Date) {
        self.seq = seq; self.opId = opId; self.entity = entity; self.entityId = entityId
        self.payload = payload; self.createdAt = createdAt
    }
}

/// What applying a page of pulled changes did.
public struct RemoteApplyReport: Hashable, Sendable {
    /// Changes that changed something here.
    public var applied = 0
    /// Changes this store already had (its own, or a repeated page).
    public var alreadyHad = 0
    /// Changes that could not be used: an unreadable payload, an op of a
    /// sketch this device never got. They are passed over, never retried:
    /// one bad change must not stop a device's sync for good.
    public var skipped = 0
    /// Sketches deleted elsewhere that held ops this device had not sent
    /// yet: kept here as copies (`keepAsCopy`), for the person to be told.
    public var keptAsCopies: [LocalStore.KeptCopy] = []

    public init() {}
}

extension LocalStore {
    /// Forgets outbox rows the server has answered for (stored or refused
    /// for good).
    public func acknowledge(_ opIds: [UUID]) throws {
        guard !opIds.isEmpty else { return }
        try writer.write { db in
            for id in opIds {
                try db.cachedStatement(sql: "DELETE FROM outbox WHERE opId = ?").execute(arguments: [id.storeKey])
            }
        }
    }

    /// Where the last pull from this server and account stopped; 0 before
    /// the first.
    public func syncCursor(for key: String) throws -> Int64 {
        try writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT cursor FROM syncState WHERE key = ?", arguments: [key]) ?? 0
        }
    }

    /// Applies a page of pulled changes in order and stores the cursor after
    /// it, all in one transaction: a device stopped half-way has either the
    /// whole page and its cursor or neither, and pulls it again. Pulled
    /// changes get no outbox rows. Applying a page twice changes nothing.
    /// `copyName`: what a sketch deleted elsewhere with unsent ops here is
    /// kept as.
    @discardableResult
    public func applyRemote(_ changes: [RemoteChange], cursor: Int64, for key: String,
                            copyName: (String) -> String = LocalStore.defaultCopyName) throws -> RemoteApplyReport {
        try writer.write { db in
            var report = RemoteApplyReport()
            let now = StoreTime.milliseconds(clock.now())
            for change in changes {
                if change.entity == .sketch, let id = UUID(text: change.entityId),
                   (try? JSONDecoder().decode(SketchChange.self, from: change.payload))?.change == .delete,
                   try Self.hasUnsentOps(id, db),
                   let kept = try keepAsCopy(id, copyName: copyName, at: now, db) {
                    report.keptAsCopies.append(kept)
                    report.applied += 1
                    continue
                }
                switch try apply(change, now: now, db) {
                case .applied: report.applied += 1
                case .alreadyHad: report.alreadyHad += 1
                case .skipped: report.skipped += 1
                }
            }
            try db.execute(sql: """
                INSERT INTO syncState (key, cursor) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET cursor = MAX(cursor, excluded.cursor)
                """, arguments: [key, cursor])
            return report
        }
    }

    private enum Applied { case applied, alreadyHad, skipped }

    private func apply(_ change: RemoteChange, now: Int64, _ db: Database) throws -> Applied {
        let decoder = JSONDecoder()
        switch change.entity {
        case .sketch:
            guard let id = UUID(text: change.entityId),
                  let sketch = try? decoder.decode(SketchChange.self, from: change.payload) else { return .skipped }
            return try applySketch(sketch, id: id, now: now, db)

        case .sketchOp:
            // A device pulls back everything it pushed itself: known ops
            // are recognised by id before their payload is read, which is
            // most of the cost of a page.
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sketchOp WHERE opId = ?"),
                                 arguments: [change.opId.storeKey]) != nil {
                return .alreadyHad
            }
            guard let id = UUID(text: change.entityId), let op = SketchOpPayload.decode(change.payload),
                  (try? SketchValidation.check(ops: [op])) != nil else { return .skipped }
            // Kept for a sketch deleted here too: a deletion can be taken
            // back, and the sketch then comes back whole.
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM sketch WHERE id = ?", arguments: [id.storeKey]) != nil
            else { return .skipped }
            let row = OpRow(opId: change.opId, kind: SketchOpPayload.kind(of: op), payload: change.payload)
            guard try insertOp(row, seq: try nextSeq(id, db), sketchID: id, at: now, outbox: false, db) else {
                return .alreadyHad
            }
            try db.execute(sql: "UPDATE sketch SET modifiedAt = ? WHERE id = ?", arguments: [now, id.storeKey])
            return .applied

        case .pool:
            guard !change.entityId.hasPrefix("builtin."),
                  let pool = try? decoder.decode(PoolChange.self, from: change.payload) else { return .skipped }
            switch pool.change {
            case .save:
                guard let saved = pool.pool, saved.id == change.entityId,
                      WordPoolLimits.problem(in: saved) == nil else { return .skipped }
                try upsertPool(saved, builtIn: false, now: now, db)
            case .delete:
                try db.execute(sql: "UPDATE pool SET deletedAt = ?, modifiedAt = ? WHERE id = ? AND deletedAt IS NULL",
                               arguments: [now, now, change.entityId])
                try db.execute(sql: "DELETE FROM poolItem WHERE poolId = ?", arguments: [change.entityId])
            }
            return .applied

        case .poolAssignment:
            guard let assignment = try? decoder.decode(PoolAssignment.self, from: change.payload) else { return .skipped }
            try Self.applyAssignment(poolID: change.entityId, assignment, db)
            return .applied

        case .wordPostRoundStat:
            // A result out of bounds (from a server that let it through) is
            // not summed into a pupil's totals.
            guard let stat = try? decoder.decode(WordPostRoundStat.self, from: change.payload), stat.problem == nil
            else { return .skipped }
            try db.execute(sql: """
                INSERT OR IGNORE INTO wordPostRoundStat (id, gameId, round, playerName, word, finished, durationMs,
                    lettersSent, lettersReceived, wrongPlacements, playedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [stat.id.storeKey, stat.gameID.storeKey, stat.round, stat.playerName, stat.word,
                                 stat.finished, stat.milliseconds, stat.lettersSent, stat.lettersReceived,
                                 stat.wrongPlacements, StoreTime.milliseconds(stat.playedAt)])
            return db.changesCount > 0 ? .applied : .alreadyHad

        case .grade:
            guard let grade = try? decoder.decode(GradeRecord.self, from: change.payload), grade.problem == nil
            else { return .skipped }
            return try Self.upsertGrade(id: change.entityId.lowercased(), grade, change.payload, db) ? .applied : .alreadyHad

        case .classSettings:
            guard let settings = try? decoder.decode(ClassSettingsRecord.self, from: change.payload),
                  settings.problem == nil else { return .skipped }
            try db.execute(sql: "INSERT OR REPLACE INTO classSettings (classId, record) VALUES (?, ?)",
                           arguments: [change.entityId.lowercased(), change.payload])
            return .applied

        case .erasure:
            guard let erasure = try? decoder.decode(AccountErasure.self, from: change.payload), erasure.problem == nil,
                  erasure.account == change.entityId.lowercased() else { return .skipped }
            try Self.forget(erasure, db)
            return .applied

        case .assignment:
            guard let record = try? decoder.decode(AssignmentRecord.self, from: change.payload), record.problem == nil,
                  let id = UUID(text: change.entityId) else { return .skipped }
            try Self.keepAssignment(id: id.storeKey, classID: record.classId.text, change.payload, db)
            return .applied

        case .assignmentAnswer:
            guard let answer = try? decoder.decode(AssignmentAnswer.self, from: change.payload), answer.problem == nil,
                  let task = UUID(text: answer.assignmentId), let pupil = answer.pupilId.uuid,
                  UUID(text: change.entityId) == AssignmentAnswer.id(of: task, pupil: pupil) else { return .skipped }
            try Self.keepAnswer(id: change.entityId.lowercased(), answer, change.payload, db)
            return .applied

        case .profile:
            guard let profile = try? decoder.decode(ProfileRecord.self, from: change.payload), profile.problem == nil
            else { return .skipped }
            try db.execute(sql: "INSERT OR REPLACE INTO profile (accountId, record) VALUES (?, ?)",
                           arguments: [change.entityId.lowercased(), change.payload])
            return .applied
        }
    }

    /// A sketch made, renamed or deleted on another device. Renames apply
    /// in the server's order, so the last one wins; a deletion is final.
    private func applySketch(_ change: SketchChange, id: UUID, now: Int64, _ db: Database) throws -> Applied {
        let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM sketch WHERE id = ?", arguments: [id.storeKey]) != nil
        switch change.change {
        case .create:
            guard !exists else { return .alreadyHad }
            guard let name = change.name, let width = change.width, let height = change.height,
                  let created = change.createdAt else { return .skipped }
            let meta = SketchMeta(id: id, name: name, guides: LineGuides(rawValue: change.guides ?? "") ?? .none,
                                  timeLimitMinutes: change.timeLimitMinutes ?? 0, width: width, height: height,
                                  createdAt: StoreTime.date(created))
            guard (try? SketchValidation.check(meta)) != nil else { return .skipped }
            let team = change.team == true
            try Self.insertSketchRow(meta, createdAt: created, modifiedAt: now, team: team,
                                     creator: team ? change.creator.flatMap(UUID.init(text:)) : nil, db)
            return .applied
        case .rename:
            guard let name = change.name, name.unicodeScalars.count <= SketchLimits.maxNameLength else { return .skipped }
            try db.execute(sql: "UPDATE sketch SET name = ?, modifiedAt = ? WHERE id = ? AND deletedAt IS NULL",
                           arguments: [name, now, id.storeKey])
            return db.changesCount > 0 ? .applied : .skipped
        case .delete:
            try db.execute(sql: "UPDATE sketch SET deletedAt = ? WHERE id = ? AND deletedAt IS NULL", arguments: [now, id.storeKey])
            return db.changesCount > 0 ? .applied : .alreadyHad
        case .restore:
            return try Self.undelete(id, at: now, db) ? .applied : .alreadyHad
        case .thumbnail, .member:
            // Thumbnails are drawn here from the ops; who draws in a
            // sketch matters only to the server.
            return .alreadyHad
        }
    }
}
