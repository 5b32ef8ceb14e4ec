import Foundation
import LearnModel

/// The change log and what the server keeps beside it, in SQL that runs on
/// both databases. Who may do what is decided by `ChangeRules`; this type
/// reads the facts those rules need and writes what they decided.
public struct SyncStore: Sendable {
    public let db: any ServerDatabase

    public init(db: any ServerDatabase) { self.db = db }

    /// Pages and lists never hold more than this.
    public static let maxListed = 1000

    // MARK: push

    /// The facts about the records a batch of changes names.
    public func facts(for changes: [SyncChange], pusher: Account) async throws -> PushFacts {
        var facts = PushFacts()
        if pusher.role == .teacher {
            facts.taughtClasses = Set(try await db.query("SELECT id FROM schoolClass WHERE teacherId = ?",
                                                         [.text(pusher.id.key)]).map { try $0.uuid("id") })
        }
        var sketchIDs = Set<String>(), poolIDs = Set<String>(), gradeIDs = Set<String>(), people = Set<String>()
        var assignmentIDs = Set<String>()
        for change in changes {
            switch change.entity {
            case .sketchOp: sketchIDs.insert(change.entityKey)
            case .sketch:
                sketchIDs.insert(change.entityKey)
                if let named = try? JSONDecoder().decode(SketchPeople.self, from: Data(change.payload.utf8)) {
                    let ids = [named.creator, named.member].compactMap { $0.flatMap(UUID.init(text:)) }
                    // The pusher too, then: whom they may name depends on
                    // their class's teacher.
                    if !ids.isEmpty { people.insert(pusher.id.key) }
                    for id in ids { people.insert(id.key) }
                }
            case .pool, .poolAssignment: poolIDs.insert(change.entityKey)
            case .grade:
                gradeIDs.insert(change.entityKey)
                if let grade = try? JSONDecoder().decode(GradeRecord.self, from: Data(change.payload.utf8)) {
                    sketchIDs.insert(grade.targetId.text)
                    if let pupil = grade.pupilId { people.insert(pupil.text) }
                }
            case .profile: people.insert(change.entityKey)
            case .wordPostRoundStat:
                if let player = try? JSONDecoder().decode(ResultPlayer.self, from: Data(change.payload.utf8)).playerID {
                    people.insert(player.key)
                }
            case .assignment:
                assignmentIDs.insert(change.entityKey)
                if let pupils = try? JSONDecoder().decode(AssignmentPupils.self, from: Data(change.payload.utf8)).pupils {
                    // A crafted list is refused by the rules; only so many are looked up.
                    for pupil in pupils.prefix(AssignmentRecord.maxPupils) { people.insert(pupil.lowercased()) }
                }
            case .assignmentAnswer:
                if let answer = try? JSONDecoder().decode(AssignmentAnswer.self, from: Data(change.payload.utf8)) {
                    assignmentIDs.insert(answer.assignmentId.lowercased())
                    if case .sketch(let sketch) = answer.work { sketchIDs.insert(sketch.key) }
                }
            case .classSettings, .erasure: break
            }
        }
        // One query for a sketch and its members: its creator is one of
        // them (a sketch's start makes them its first member).
        var creators: [String: String] = [:]
        for row in try await select("""
            SELECT sketch.id, sketch.deletedAt, sketch.team, sketch.creatorId, sketch.opCount, \(Self.personColumns) FROM sketch
            LEFT JOIN sketchAuthor ON sketchAuthor.sketchId = sketch.id
            LEFT JOIN account ON account.id = sketchAuthor.accountId
            WHERE sketch.id IN
            """, sketchIDs) {
            let id = try row.text("id")
            var sketch = facts.sketches[id] ?? .init(creator: nil, members: [], team: row["team"].int == 1,
                                                     deletedAt: row["deletedAt"].int, opCount: row["opCount"].int ?? 0)
            if row["accountId"] != .null { sketch.add(try person(row, id: "accountId")) }
            facts.sketches[id] = sketch
            creators[id] = row["creatorId"].text
        }
        for (id, creator) in creators {
            let found = facts.sketches[id]?.members.first { $0.id.key == creator }
            facts.sketches[id]?.creator = found
        }
        for row in try await select("""
            SELECT poolOwner.poolId, \(Self.personColumns) FROM poolOwner
            JOIN account ON account.id = poolOwner.accountId WHERE poolOwner.poolId IN
            """, poolIDs) {
            facts.poolOwners[try row.text("poolId")] = try person(row, id: "accountId")
        }
        for row in try await select("SELECT id, classId, ownerId, pupils, deleted FROM assignment WHERE id IN", assignmentIDs) {
            let pupils = try row["pupils"].text.map { text in
                Set(try JSONDecoder().decode([String].self, from: Data(text.utf8)).compactMap(UUID.init(text:)))
            }
            facts.assignments[try row.text("id")] = .init(classID: try row.uuid("classId"), ownerID: try row.uuid("ownerId"),
                                                          pupils: pupils, deleted: row["deleted"].int == 1)
        }
        for row in try await select("SELECT gradeId, accountId FROM gradeOwner WHERE gradeId IN", gradeIDs) {
            facts.gradeOwners[try row.text("gradeId")] = try row.uuid("accountId")
        }
        for row in try await select("SELECT \(Self.personColumns) FROM account WHERE account.id IN", people) {
            let found = try person(row, id: "accountId")
            facts.people[found.id] = found
        }
        for row in try await select("SELECT opId, entity, entityId, payloadHash FROM change WHERE opId IN",
                                    Set(changes.map(\.opId.key))) {
            guard let entity = SyncChange.Entity(rawValue: try row.text("entity")) else {
                throw DatabaseProblem.unexpectedRow(column: "entity")
            }
            facts.storedOps[try row.uuid("opId")] = .init(entity: entity, entityKey: try row.text("entityId"),
                                                           payloadHash: row["payloadHash"].text)
        }
        return facts
    }

    /// The one field of an assignment the facts need: whom it is for.
    private struct AssignmentPupils: Decodable { var pupils: [String]? }
    /// The one field of a result the facts need: whose it is.
    private struct ResultPlayer: Decodable { var playerID: UUID? }
    /// The accounts a sketch's change names: who started it, who joins.
    private struct SketchPeople: Decodable { var creator: String?; var member: String? }

    /// What the rules know of an account (`person`), from `account`.
    private static let personColumns = """
        account.id AS accountId, account.role, account.classId,
        (SELECT teacherId FROM schoolClass WHERE schoolClass.id = account.classId) AS teacherId
        """

    /// Stores what was decided, all of it in one transaction that takes
    /// turns with every other push (`ServerDatabase.serialized`), so
    /// changes get their `seq` in the order they commit: otherwise a device
    /// could pull a later change, move its cursor past it, and never see an
    /// earlier one that committed after.
    ///
    /// The decisions were made on facts read before the transaction, so two
    /// pushes of one op (a retry while the first answer was on its way) can
    /// both decide to store it. Only one row is inserted, and a change's
    /// effects on the records beside the log happen only if its row is the
    /// one this push inserted: a late retry of an old rename never undoes a
    /// newer one.
    ///
    /// `push` marks every row this push inserts: its device may ask not to
    /// be sent them back, and an effect happens only for a row with its
    /// mark (so each call needs a mark of its own).
    public func store(_ decided: [(SyncChange, ChangeDecision)], pusher: Account, push pushID: UUID = UUID(),
                      now: Int64) async throws {
        let push = SQLValue.text(pushID.key)
        var statements: [SQLStatement] = []
        var effects: [SQLStatement] = []
        // Each sketch this push changes, with the ops it adds to it.
        var touched: [String: [SQLValue]] = [:]
        // New changes go in as multi-row inserts, in order: one statement
        // per change would cost a round trip each on PostgreSQL.
        var rows: [[SQLValue]] = []
        var rounds: [(opId: String, player: String, stat: WordPostRoundStat)] = []
        var bytes: Int64 = 0, storedCount = 0
        // Members named, whose copies of the history this push makes.
        var members = Set<String>()
        for (change, decision) in decided {
            switch decision {
            case .reject, .duplicate:
                continue
            case .store(let audience, let effect):
                if case .sketch(let id, _, let started) = effect {
                    if let started { statements += Self.start(id, started, now: now, pusher: pusher.id) }
                    touched[id, default: []] += change.entity == .sketchOp ? [.text(change.opId.key)] : []
                }
                let insertedHere = Guard(opId: .text(change.opId.key), push: push)
                effects += Self.statements(for: effect, pusher: pusher, now: now, if: insertedHere, on: db.dialect)
                if case .result(let player, let stat) = effect { rounds.append((change.opId.key, player, stat)) }
                bytes += Int64(change.payload.utf8.count)
                storedCount += 1
                rows.append([.text(change.opId.key), .text(change.entity.rawValue), .text(change.entityKey),
                             .text(change.payload), .text(change.payloadHash), .int(change.createdAt),
                             .text(pusher.id.key), .int(now), push,
                             Self.optional(audience.sketchID), Self.optional(audience.classID),
                             Self.optional(audience.subjectID)])
                // A member's copies of what came before take their place
                // in the log right after the change naming them, before
                // the rest of the batch: a later op of the sketch must not
                // reach their laptop ahead of its creation.
                if case .sketch(_, let described?, _) = effect, described.change == .member {
                    if let member = described.member?.lowercased() { members.insert(member) }
                    statements += Self.inserts(rows) + effects
                    rows = []
                    effects = []
                }
            }
        }
        if db.dialect == .postgresql, statements.isEmpty, effects.isEmpty, rounds.isEmpty, members.isEmpty,
           !rows.isEmpty, rows.count <= Self.rowsAtOnce {
            _ = try await db.query(Self.opsAtOnce(rows, touched: touched.keys.sorted(), pusher: pusher.id,
                                                  bytes: bytes, now: now))
            return
        }
        statements += Self.inserts(rows) + effects
        statements += CurrentState.file(rounds, push: push)
        if storedCount > 0 {
            statements.append(Self.recordUsage(of: pusher.id, bytes: bytes, changes: Int64(storedCount), now: now))
            if !members.isEmpty {
                statements.append(Self.chargeCopies(madeFor: members.sorted(), push: push, to: pusher.id, now: now))
            }
        }
        // The ops this push inserted are counted, not the sketch's whole
        // log: under the lock every push takes, a recount of a sketch of
        // 10,000 ops (or a plan that reads the whole log for it) held up
        // the class.
        for (sketchID, ops) in touched.sorted(by: { $0.key < $1.key }) {
            let marks = SQLStatement.placeholders(ops.count)
            let added = ops.isEmpty ? "0" : "(SELECT COUNT(*) FROM change WHERE opId IN (\(marks)) AND pushId = ?)"
            statements.append(SQLStatement("UPDATE sketch SET modifiedAt = ?, opCount = opCount + \(added) WHERE id = ?",
                                           [.int(now)] + ops + (ops.isEmpty ? [] : [push]) + [.text(sketchID)]))
        }
        try await db.serialized(statements)
    }

    /// New change rows as multi-row inserts, in order.
    private static func inserts(_ rows: [[SQLValue]]) -> [SQLStatement] {
        stride(from: 0, to: rows.count, by: rowsPerInsert).map { chunk in
            let part = rows[chunk..<min(chunk + rowsPerInsert, rows.count)]
            let marks = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: part.count).joined(separator: ", ")
            return SQLStatement("""
                INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                    pushId, sketchId, classId, subjectId)
                VALUES \(marks) ON CONFLICT (opId) DO NOTHING
                """, part.flatMap { $0 })
        }
    }

    /// A push of changes that only add to the log (ops drawn, nothing
    /// started, named or graded) as one statement on PostgreSQL: the turn,
    /// the rows, the day's usage and the sketches' counts, committed as it
    /// ends. The turn every push takes is then held for the statement's own
    /// work, not for the round trips of a transaction between this server
    /// and the database: a class drawing at once queued behind those (a
    /// quarter of a second at the 99th percentile on two cores).
    ///
    /// The turn is joined to every row, so it is taken before the first
    /// row gets its `seq`, and to the usage row, so that row is never held
    /// while waiting for the turn (PostgreSQL runs a WITH's unreferenced
    /// parts last, in any order: a push in a transaction takes the turn
    /// first and the usage row after, and the two would deadlock).
    /// Sketches count the ops actually inserted (a retry's rows are not).
    static func opsAtOnce(_ rows: [[SQLValue]], touched sketches: [String], pusher: UUID, bytes: Int64,
                          now: Int64) -> SQLStatement {
        let marks = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
        let usage = recordUsage(of: pusher, bytes: bytes, changes: Int64(rows.count), now: now, afterTurn: true)
        let main = sketches.isEmpty ? SQLStatement("SELECT 1") : SQLStatement("""
            UPDATE sketch SET modifiedAt = ?,
                opCount = opCount + (SELECT COUNT(*) FROM added WHERE added.sketchId = sketch.id AND added.entity = 'sketchOp')
            WHERE id IN (\(SQLStatement.placeholders(sketches.count)))
            """, [.int(now)] + sketches.map { .text($0) })
        return SQLStatement("""
            WITH turn AS (SELECT pg_advisory_xact_lock(\(PostgresDatabase.pushTurn))),
            added AS (
                INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                    pushId, sketchId, classId, subjectId)
                SELECT v.* FROM (VALUES \(marks)) AS v CROSS JOIN turn WHERE true
                ON CONFLICT (opId) DO NOTHING
                RETURNING sketchId, entity
            ),
            usage AS (\(usage.sql))
            \(main.sql)
            """, rows.flatMap { $0 } + usage.binds + main.binds)
    }

    /// 12 values a row: 2,400 binds a statement, far under both databases' limits.
    private static let rowsPerInsert = 200

    /// A whole push in `opsAtOnce`: 500 changes at most, 6,000 binds,
    /// far under PostgreSQL's 65,535.
    private static let rowsAtOnce = SchoolAPI.maxChangesPerPush

    /// "The change `opId` is the row this push inserted", as SQL: what an
    /// effect's statement adds to its condition.
    struct Guard {
        var opId: SQLValue
        var push: SQLValue
        var sql: String { "EXISTS (SELECT 1 FROM change WHERE opId = ? AND pushId = ?)" }
        var binds: [SQLValue] { [opId, push] }
    }

    private static func statements(for effect: ChangeEffect, pusher: Account, now: Int64,
                                   if inserted: Guard, on dialect: SQLDialect) -> [SQLStatement] {
        let me = SQLValue.text(pusher.id.key)
        switch effect {
        case .none:
            return []
        case .sketch(let id, let change, _):
            switch change?.change {
            case .create?:
                return [SQLStatement("""
                    UPDATE sketch SET name = ?, width = ?, height = ?, createdAt = ?, described = 1
                    WHERE id = ? AND described = 0 AND \(inserted.sql)
                    """, [.text(change?.name ?? ""), .double(change?.width ?? SketchMeta.defaultWidth),
                          .double(change?.height ?? SketchMeta.defaultHeight), .int(change?.createdAt ?? now),
                          .text(id)] + inserted.binds)]
            case .rename?:
                return [SQLStatement("UPDATE sketch SET name = ?, renameOpId = ? WHERE id = ? AND \(inserted.sql)",
                                     [.text(change?.name ?? ""), inserted.opId, .text(id)] + inserted.binds)]
            case .delete?:
                return [SQLStatement("UPDATE sketch SET deletedAt = ? WHERE id = ? AND deletedAt IS NULL AND \(inserted.sql)",
                                     [.int(now), .text(id)] + inserted.binds)]
            case .restore?:
                return [SQLStatement("UPDATE sketch SET deletedAt = NULL WHERE id = ? AND \(inserted.sql)",
                                     [.text(id)] + inserted.binds)]
            case .member?:
                let member = SQLValue.text(change?.member?.lowercased() ?? "")
                let creation = SQLValue.text(UUID(text: id).map { SketchOpIdentity.creation(of: $0).key } ?? "")
                let author = SQLStatement("""
                    INSERT INTO sketchAuthor (sketchId, accountId) SELECT ?, ? WHERE \(inserted.sql)
                    ON CONFLICT DO NOTHING
                    """, [.text(id), member] + inserted.binds)
                let both = [
                    author,
                    // A member named after the sketch was drawn in has
                    // pulled past what came before: the creation, the ops,
                    // the rename that gave its name and the team's grades
                    // come again, as copies only they pull, in their order
                    // (what they pushed themselves they see anyway).
                    SQLStatement("""
                        INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                            pushId, sketchId, classId, subjectId, copyOf, copyFor)
                        SELECT 'copy:' || ? || ':' || CAST(seq AS TEXT), entity, entityId, payload, payloadHash, createdAt, '',
                               ?, ?, NULL, NULL, NULL, seq, ?
                        FROM change WHERE sketchId = ? AND authorId <> ? AND \(inserted.sql)
                          AND seq < (SELECT seq FROM change WHERE opId = ?)
                          AND (entity IN ('sketchOp', 'grade') OR opId = ? OR opId = (SELECT renameOpId FROM sketch WHERE id = ?))
                        ORDER BY seq
                        """, [member, .int(now), inserted.push, member, .text(id), member] + inserted.binds
                            + [inserted.opId, creation, .text(id)]),
                ]
                // A team's host names three members as it starts the
                // sketch; each statement under the push's turn is a round
                // trip to PostgreSQL that the class waits for. The two
                // touch different tables and neither reads what the other
                // writes, so there they go as one.
                return dialect == .postgresql ? [SQLStatement(with: author, then: both[1])] : both
            case .thumbnail?, nil:
                return []
            }
        case .claimPool(let id):
            return [SQLStatement("""
                INSERT INTO poolOwner (poolId, accountId) SELECT ?, ? WHERE \(inserted.sql)
                ON CONFLICT (poolId) DO NOTHING
                """, [.text(id), me] + inserted.binds)]
        case .assignPool(let id, let classID, false):
            return [SQLStatement("DELETE FROM poolAssignment WHERE poolId = ? AND classId = ? AND \(inserted.sql)",
                                 [.text(id), .text(classID)] + inserted.binds)]
        case .assignPool(let id, let classID, true):
            return [
                SQLStatement("""
                    INSERT INTO poolAssignment (poolId, classId) SELECT ?, ? WHERE \(inserted.sql)
                    ON CONFLICT DO NOTHING
                    """, [.text(id), .text(classID)] + inserted.binds),
                // Pupils of the class may have pulled past the list's last
                // save before it was theirs to see: it goes out again, after
                // the assignment.
                SQLStatement("""
                    INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt,
                                        pushId, sketchId, classId, subjectId)
                    SELECT ?, entity, entityId, payload, payloadHash, createdAt, authorId, ?, ?, NULL, NULL, NULL
                    FROM change WHERE entity = 'pool' AND entityId = ? AND \(inserted.sql) ORDER BY seq DESC LIMIT 1
                    """, [.text(UUID().key), .int(now), inserted.push, .text(id)] + inserted.binds),
            ]
        case .grade(let id, let record):
            return [SQLStatement("""
                INSERT INTO gradeOwner (gradeId, accountId) SELECT ?, ? WHERE \(inserted.sql)
                ON CONFLICT (gradeId) DO NOTHING
                """, [.text(id), me] + inserted.binds), CurrentState.keep(record, id: id, teacher: me, if: inserted)]
        case .result:
            return []  // all of a push's rounds at once, in `store`
        case .profile(let accountID, let classID):
            return [CurrentState.keepProfile(of: accountID, classID: classID, if: inserted)]
        case .assignment(let id, let classID, let pupils, let deleted):
            // The last change in the server's order wins, here as on every
            // device, so the rules decide on the task the pupils see.
            // Account ids are hex and dashes: the list is JSON as it stands.
            let list: SQLValue = pupils.map { .text("[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]") } ?? .null
            return [SQLStatement("""
                INSERT INTO assignment (id, classId, ownerId, pupils, deleted) SELECT ?, ?, ?, ?, ? WHERE \(inserted.sql)
                ON CONFLICT (id) DO UPDATE SET pupils = excluded.pupils, deleted = excluded.deleted
                """, [.text(id), .text(classID), me, list, .int(deleted ? 1 : 0)] + inserted.binds)]
        }
    }

    /// Ids that are UUIDs are stored in lower case, so every device's
    /// spelling names the same record; pool ids are kept as they are.
    static func entityKey(_ change: SyncChange) -> String {
        UUID(text: change.entityId).map(\.key) ?? change.entityId
    }

    /// The sketch exists from the first change the server hears of it
    /// (its creation describes it), with who started it as its first
    /// member. Two pushes that both start it keep the first one's creator.
    /// `pusher`: who pushed the creation, whose sketch quota it counts
    /// against (a team's host may name a classmate as its creator).
    private static func start(_ id: String, _ started: SketchStart, now: Int64, pusher: UUID) -> [SQLStatement] {
        [SQLStatement("""
            INSERT INTO sketch (id, name, width, height, described, createdAt, modifiedAt, opCount, creatorId, team, startedBy)
            VALUES (?, '', ?, ?, 0, ?, ?, 0, ?, ?, ?) ON CONFLICT (id) DO NOTHING
            """, [.text(id), .double(SketchMeta.defaultWidth), .double(SketchMeta.defaultHeight), .int(now), .int(now),
                  .text(started.creator), .int(started.team ? 1 : 0), .text(pusher.key)]),
         SQLStatement("""
            INSERT INTO sketchAuthor (sketchId, accountId) SELECT id, creatorId FROM sketch WHERE id = ?
            ON CONFLICT DO NOTHING
            """, [.text(id)])]
    }

    // MARK: pull

    /// Up to `limit` changes after `after` that the account may see, in
    /// server order, and whether more are waiting. Each way a change can be
    /// visible is its own indexed query, so a pupil's pull reads their own
    /// rows rather than the whole school's.
    ///
    /// The cursor it returns is past everything stored when the pull began
    /// once no more are waiting, not only past the last visible change: a
    /// record that becomes visible later (a word list given to the class)
    /// is sent again then, and should not also come from before. Read
    /// before the page, so a change stored meanwhile is not skipped.
    /// `only`: just these kinds of change, seen by the same rules.
    ///
    /// `skipping`: pushes of this account whose device holds what they
    /// stored. Their ops are left out of the page but not out of the
    /// cursor: a device pulling right after pushing 10,000 ops is not sent
    /// them back (most of a big push's time went to that). They are left
    /// out where each branch reads, so they do not count towards a page's
    /// limit: a pull after a big push is one page, not twenty empty ones
    /// walking past what the device has (on PostgreSQL a fifth of the
    /// push's round). Only ops are
    /// left out: an op never changes, where a rename or a grade is applied
    /// in the log's order, and the device's own one coming back after a
    /// classmate's is what makes every device end with the same name.
    /// Only rows the account itself pushed are left out, never the copies
    /// a push made for a named member: those carry another op's id, which
    /// the device may not hold.
    public func changes(visibleTo account: Account, after: Int64, limit: Int,
                        only: Set<SyncChange.Entity>? = nil,
                        skipping pushes: Set<UUID> = []) async throws -> (changes: [StoredChange], cursor: Int64, more: Bool) {
        guard only?.isEmpty != true else { return ([], after, false) }
        let newest = try await db.query("SELECT MAX(seq) AS newest FROM change").first?["newest"].int ?? 0
        let scope = Scope(account)
        let n = SQLValue.int(Int64(limit + 1))
        let cursor = SQLValue.int(after)
        // A pupil's team sketches, one by one on PostgreSQL: its planner
        // reads the whole log for "ops of any of these sketches, in
        // order" (up to 160 ms for a first pull beside a class drawing),
        // where each sketch's own index finds them at once.
        let teamsOneByOne = db.dialect == .postgresql && account.role == .pupil
        // Likewise the class's word lists: asked for as "saved lists that
        // are among the class's", PostgreSQL read the whole log for a pull
        // from the start (a new laptop), where each list's own index finds
        // its saves.
        let poolsOneByOne = db.dialect == .postgresql
        let branches: [(String, [SQLValue])] = [
            ("authorId IN (\(scope.people.sql))", scope.people.binds),
            ("subjectId IN (\(scope.people.sql))", scope.people.binds),
            ("classId IN (\(scope.classes.sql))", scope.classes.binds),
        ] + (teamsOneByOne ? [] : [
            ("sketchId IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))", scope.people.binds),
        ]) + (poolsOneByOne ? [] : [
            ("entity = 'pool' AND entityId IN (SELECT poolId FROM poolAssignment WHERE classId IN (\(scope.classes.sql)))",
             scope.classes.binds),
        ]) + [
            ("copyFor = ?", [.text(account.id.key)]),
        ]
        // First which changes and how big, then the changes themselves: a
        // page stops at `maxPageCharacters` of payload, so a pull never
        // loads a thousand of the largest changes at once.
        // Each branch hands on only a change's place: the union that drops
        // what two branches found compares those, not whole rows, and the
        // size is read only for the page's own rows. (A branch that scans
        // a sketch of 10,000 ops would otherwise measure every payload
        // before its sort: three quarters of a teacher's pull on
        // PostgreSQL.)
        var skipped = ""
        var skippedBinds: [SQLValue] = []
        if !pushes.isEmpty {
            skipped = """
                 AND (change.entity <> 'sketchOp' OR change.copyOf IS NOT NULL OR change.pushId IS NULL
                      OR change.authorId <> ? OR change.pushId NOT IN (\(SQLStatement.placeholders(pushes.count))))
                """
            skippedBinds = [.text(account.id.key)] + pushes.map(\.key).sorted().map { .text($0) }
        }
        var sql = "SELECT page.seq, LENGTH(change.payload) AS size FROM (SELECT seq FROM ("
        var binds: [SQLValue] = []
        // The kinds are the enum's own names, never the caller's text.
        let kinds = only.map { " AND entity IN (" + $0.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ") + ")" } ?? ""
        for (index, (condition, conditionBinds)) in branches.enumerated() {
            if index > 0 { sql += " UNION " }
            sql += "SELECT * FROM (SELECT seq FROM change WHERE \(condition)\(kinds)\(skipped) AND seq > ? ORDER BY seq LIMIT ?) b\(index)"
            binds += conditionBinds + skippedBinds + [cursor, n]
        }
        if teamsOneByOne {
            sql += """
                 UNION SELECT * FROM (SELECT c.seq FROM sketchAuthor a CROSS JOIN LATERAL
                    (SELECT seq FROM change
                     WHERE change.sketchId = a.sketchId\(kinds)\(skipped) AND seq > ? ORDER BY seq LIMIT ?) c
                    WHERE a.accountId IN (\(scope.people.sql)) ORDER BY c.seq LIMIT ?) teams
                """
            binds += skippedBinds + [cursor, n] + scope.people.binds + [n]
        }
        if poolsOneByOne {
            // Each list once, though given to two of a teacher's classes:
            // a list counted twice towards the branch's limit would leave
            // out a later save that a page then walks past.
            sql += """
                 UNION SELECT * FROM (SELECT c.seq FROM (SELECT DISTINCT poolId FROM poolAssignment
                                                       WHERE classId IN (\(scope.classes.sql))) p CROSS JOIN LATERAL
                    (SELECT seq FROM change
                     WHERE change.entity = 'pool' AND change.entityId = p.poolId\(kinds)\(skipped) AND seq > ?
                     ORDER BY seq LIMIT ?) c
                    ORDER BY c.seq LIMIT ?) pools
                """
            binds += scope.classes.binds + skippedBinds + [cursor, n, n]
        }
        sql += ") visible ORDER BY seq LIMIT ?) page JOIN change ON change.seq = page.seq ORDER BY page.seq"
        binds.append(n)
        let candidates = try await db.query(sql, binds)
        var chosen: [SQLValue] = []
        var characters: Int64 = 0
        for row in candidates.prefix(limit) {
            let size = row["size"].int ?? 0
            if !chosen.isEmpty, characters + size > Self.maxPageCharacters { break }
            characters += size
            chosen.append(row["seq"])
        }
        let more = candidates.count > chosen.count
        guard let lastChosen = chosen.last?.int else { return ([], max(newest, after), false) }
        let marks = SQLStatement.placeholders(chosen.count)
        let rows = try await db.query("""
            SELECT c.seq, COALESCE(o.opId, c.opId) AS opId, c.entity, c.entityId, c.payload, c.createdAt,
                   COALESCE(o.authorId, c.authorId) AS authorId, c.subjectId
            FROM change c LEFT JOIN change o ON o.seq = c.copyOf
            WHERE c.seq IN (\(marks)) ORDER BY c.seq
            """, chosen)
        var out: [StoredChange] = []
        out.reserveCapacity(rows.count)
        for row in rows {
            guard let entity = SyncChange.Entity(rawValue: try row.text("entity")) else {
                throw DatabaseProblem.unexpectedRow(column: "entity")
            }
            out.append(StoredChange(
                seq: try row.int("seq"),
                change: SyncChange(opId: try row.uuid("opId"), entity: entity, entityId: try row.text("entityId"),
                                   payload: try row.text("payload"), createdAt: try row.int("createdAt")),
                authorID: try row.uuid("authorId"),
                subjectID: row["subjectId"].text.flatMap(UUID.init(text:))))
        }
        return (out, more ? lastChosen : max(lastChosen, newest, after), more)
    }

    /// A page holds about 8 million characters of payload at most, or one
    /// change when a single change is bigger.
    static let maxPageCharacters: Int64 = 8 << 20

    // MARK: sketches

    public struct SketchRecord: Sendable, Hashable {
        public var id: UUID
        public var name: String
        public var width: Double
        public var height: Double
        public var createdAt: Int64
        public var modifiedAt: Int64
        public var opCount: Int64
        public var authors: [UUID]
    }

    /// A page of a sketch list, and where the next one starts when there
    /// is more.
    public struct SketchPage<Record: Sendable & Hashable>: Sendable, Hashable {
        public var sketches: [Record]
        public var next: SketchListCursor?
    }

    /// The sketches the account may see that are not deleted, newest change
    /// first: a pupil's own and team sketches, a teacher's own and their
    /// pupils'. `drawnBy`: only those this account drew in. At most `limit`,
    /// after `before`; `next` says where the rest start.
    public func sketches(visibleTo account: Account, drawnBy author: UUID? = nil, before: SketchListCursor? = nil,
                         limit: Int = maxListed) async throws -> SketchPage<SketchRecord> {
        let scope = Scope(account)
        var condition = "deletedAt IS NULL AND id IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))"
        var binds = scope.people.binds
        if let author {
            condition += " AND id IN (SELECT sketchId FROM sketchAuthor WHERE accountId = ?)"
            binds.append(.text(author.key))
        }
        let after = Self.after(before, by: "modifiedAt")
        let limit = min(max(limit, 1), Self.maxListed)
        let rows = try await db.query("""
            SELECT id, name, width, height, createdAt, modifiedAt, opCount FROM sketch
            WHERE \(condition)\(after.sql) ORDER BY modifiedAt DESC, id LIMIT ?
            """, binds + after.binds + [.int(Int64(limit + 1))])
        var records = try rows.prefix(limit).map(sketchRecord)
        var authors: [String: [UUID]] = [:]
        for row in try await select("SELECT sketchId, accountId FROM sketchAuthor WHERE sketchId IN",
                                    Set(records.map(\.id.key))) {
            authors[try row.text("sketchId"), default: []].append(try row.uuid("accountId"))
        }
        for i in records.indices { records[i].authors = (authors[records[i].id.key] ?? []).sorted { $0.key < $1.key } }
        let next = rows.count > limit ? records.last.map { SketchListCursor(at: $0.modifiedAt, id: $0.id) } : nil
        return SketchPage(sketches: records, next: next)
    }

    /// " AND …": the rows after `before` in a list ordered by `column`
    /// (latest first) and then id; nothing for the first page.
    private static func after(_ before: SketchListCursor?, by column: String) -> (sql: String, binds: [SQLValue]) {
        guard let before else { return ("", []) }
        return (" AND (\(column) < ? OR (\(column) = ? AND id > ?))", [.int(before.at), .int(before.at), .text(before.id.key)])
    }

    /// How many sketches the account may see that are not deleted.
    public func sketchCount(visibleTo account: Account) async throws -> Int {
        let scope = Scope(account)
        let row = try await db.query("""
            SELECT COUNT(*) AS n FROM sketch
            WHERE deletedAt IS NULL AND id IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))
            """, scope.people.binds).first
        return Int(try row?.int("n") ?? 0)
    }

    /// Name and members of each of these sketches the account may see
    /// (deleted ones too: a grade outlives its sketch's deletion), by key;
    /// read a few hundred ids at a time.
    public func sketchNames(_ ids: Set<String>, visibleTo account: Account) async throws
        -> [String: (name: String, authors: Set<String>)] {
        let scope = Scope(account)
        var out: [String: (name: String, authors: Set<String>)] = [:]
        let sorted = ids.sorted()
        for start in stride(from: 0, to: sorted.count, by: 500) {
            let part = sorted[start..<min(start + 500, sorted.count)].map { SQLValue.text($0) }
            let marks = SQLStatement.placeholders(part.count)
            for row in try await db.query("""
                SELECT sketch.id, sketch.name, sketchAuthor.accountId FROM sketch
                JOIN sketchAuthor ON sketchAuthor.sketchId = sketch.id
                WHERE sketch.id IN (\(marks))
                  AND sketch.id IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))
                """, part + scope.people.binds) {
                let id = try row.text("id"), name = try row.text("name"), author = try row.text("accountId")
                out[id, default: (name, [])].authors.insert(author)
            }
        }
        return out
    }

    /// A deleted sketch that can still be brought back.
    public struct DeletedRecord: Sendable, Hashable {
        public var id: UUID
        public var name: String
        public var deletedAt: Int64
    }

    /// The sketches the account may see that were deleted within
    /// `SketchDeletion.undoDays` of `now`, the latest deletion first, a
    /// page at a time as `sketches`.
    public func deletedSketches(visibleTo account: Account, now: Int64, before: SketchListCursor? = nil,
                                limit: Int = maxListed) async throws -> SketchPage<DeletedRecord> {
        let scope = Scope(account)
        let after = Self.after(before, by: "deletedAt")
        let limit = min(max(limit, 1), Self.maxListed)
        let rows = try await db.query("""
            SELECT id, name, deletedAt FROM sketch
            WHERE deletedAt IS NOT NULL AND deletedAt >= ?\(after.sql)
              AND id IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))
            ORDER BY deletedAt DESC, id LIMIT ?
            """, [.int(now - SketchDeletion.undoMilliseconds)] + after.binds + scope.people.binds + [.int(Int64(limit + 1))])
        let records = try rows.prefix(limit).map {
            DeletedRecord(id: try $0.uuid("id"), name: try $0.text("name"), deletedAt: try $0.int("deletedAt"))
        }
        let next = rows.count > limit ? records.last.map { SketchListCursor(at: $0.deletedAt, id: $0.id) } : nil
        return SketchPage(sketches: records, next: next)
    }

    /// One sketch if the account may see it and it is not deleted (or,
    /// with `deleted`, if it is).
    public func sketch(_ id: UUID, visibleTo account: Account, deleted: Bool = false) async throws -> SketchRecord? {
        let scope = Scope(account)
        return try await db.query("""
            SELECT id, name, width, height, createdAt, modifiedAt, opCount FROM sketch
            WHERE id = ? AND deletedAt IS \(deleted ? "NOT NULL" : "NULL")
              AND id IN (SELECT sketchId FROM sketchAuthor WHERE accountId IN (\(scope.people.sql)))
            """, [.text(id.key)] + scope.people.binds).first.map(sketchRecord)
    }

    /// The sketch's ops in server order, as pushed.
    public func opPayloads(of id: UUID) async throws -> [String] {
        try await db.query("SELECT payload FROM change WHERE sketchId = ? AND entity = 'sketchOp' ORDER BY seq",
                           [.text(id.key)]).map { try $0.text("payload") }
    }

    /// The stored thumbnail if it was rendered from this many ops.
    public func thumbnail(of id: UUID, opCount: Int64) async throws -> [UInt8]? {
        try await db.query("SELECT thumbnail FROM sketch WHERE id = ? AND thumbnailOpCount = ?",
                           [.text(id.key), .int(opCount)]).first?["thumbnail"].bytes
    }

    public func storeThumbnail(_ png: [UInt8], of id: UUID, opCount: Int64) async throws {
        try await db.execute("UPDATE sketch SET thumbnail = ?, thumbnailOpCount = ? WHERE id = ?",
                             [.bytes(png), .int(opCount), .text(id.key)])
    }

    // MARK: helpers

    /// Whose records an account sees, as SQL: a pupil their own and their
    /// class's; a teacher their own, their classes' and their pupils'.
    struct Scope {
        var people: (sql: String, binds: [SQLValue])
        var classes: (sql: String, binds: [SQLValue])

        init(_ account: Account) {
            let me = SQLValue.text(account.id.key)
            switch account.role {
            case .pupil:
                people = ("SELECT id FROM account WHERE id = ?", [me])
                classes = ("SELECT id FROM schoolClass WHERE id = ?", [.text(account.classID?.key ?? "")])
            case .teacher:
                people = ("SELECT id FROM account WHERE id = ? OR classId IN (SELECT id FROM schoolClass WHERE teacherId = ?)",
                          [me, me])
                classes = ("SELECT id FROM schoolClass WHERE teacherId = ?", [me])
            }
        }
    }

    /// `prefix` ends in `IN`; the values become its list. No query for none.
    private func select(_ prefix: String, _ values: Set<String>) async throws -> [SQLRow] {
        guard !values.isEmpty else { return [] }
        let sorted = values.sorted()
        let marks = SQLStatement.placeholders(sorted.count)
        return try await db.query(prefix + " (\(marks))", sorted.map { .text($0) })
    }

    private func person(_ row: SQLRow, id column: String) throws -> PushFacts.Person {
        PushFacts.Person(id: try row.uuid(column), isPupil: try row.text("role") == Account.Role.pupil.rawValue,
                         classID: row["classId"].text.flatMap(UUID.init(text:)),
                         teacherID: row["teacherId"].text.flatMap(UUID.init(text:)))
    }

    private func sketchRecord(_ row: SQLRow) throws -> SketchRecord {
        guard case .double(let width) = row["width"], case .double(let height) = row["height"] else {
            throw DatabaseProblem.unexpectedRow(column: "width")
        }
        return SketchRecord(id: try row.uuid("id"), name: try row.text("name"), width: width, height: height,
                            createdAt: try row.int("createdAt"), modifiedAt: try row.int("modifiedAt"),
                            opCount: try row.int("opCount"), authors: [])
    }

    private static func optional(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
}
