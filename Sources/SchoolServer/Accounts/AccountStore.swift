import Foundation
import LearnModel

/// Accounts, classes, tokens and failed sign-ins in the server's database.
/// Only SQL lives here; who may do what is decided by the API's handlers.
public struct AccountStore: Sendable {
    public let db: any ServerDatabase

    public init(db: any ServerDatabase) { self.db = db }

    // MARK: accounts

    public enum CreateResult: Sendable, Equatable {
        case created(Account)
        case nameTaken
        /// The school has `maxTeachers` already.
        case schoolFull
    }

    public static let maxTeachers = SchoolAccountLimits.maxTeachers

    /// The first teacher of a school is its admin.
    public func createTeacher(_ name: PersonName, passwordHash: String, now: Int64) async throws -> CreateResult {
        let id = UUID()
        let rows = try await db.execute("""
            INSERT INTO account (id, role, name, nameKey, passwordHash, createdAt, admin)
            SELECT ?, 'teacher', ?, ?, ?, ?, CASE WHEN EXISTS (SELECT 1 FROM account WHERE role = 'teacher') THEN 0 ELSE 1 END
            WHERE (SELECT COUNT(*) FROM account WHERE role = 'teacher') < ?
            ON CONFLICT (nameKey) WHERE role = 'teacher' DO NOTHING
            RETURNING id
            """, [.text(id.key), .text(name.text), .text(name.key), .text(passwordHash), .int(now), .int(Int64(Self.maxTeachers))])
        if !rows.isEmpty { return .created(Account(id: id, role: .teacher, name: name.text)) }
        let count = try await db.query("SELECT COUNT(*) AS n FROM account WHERE role = 'teacher'").first?.int("n") ?? 0
        return count >= Self.maxTeachers ? .schoolFull : .nameTaken
    }

    /// A teacher and their password hash, by name (any case).
    public func teacher(named name: PersonName) async throws -> (Account, String)? {
        let rows = try await db.query(
            "SELECT id, name, passwordHash FROM account WHERE role = 'teacher' AND nameKey = ?", [.text(name.key)])
        guard let row = rows.first else { return nil }
        return (Account(id: try row.uuid("id"), role: .teacher, name: try row.text("name")), try row.text("passwordHash"))
    }

    /// A pupil and their picture-password hash (nil until the teacher set
    /// one). With `signingIn`, a pupil of an archived class is not found.
    public func pupil(_ id: UUID, signingIn: Bool = false) async throws -> (Account, String?)? {
        let rows = try await db.query("""
            SELECT id, name, classId, passwordHash FROM account WHERE role = 'pupil' AND id = ?
            \(signingIn ? "AND classId IN (SELECT id FROM schoolClass WHERE archivedAt IS NULL)" : "")
            """, [.text(id.key)])
        guard let row = rows.first else { return nil }
        return (Account(id: try row.uuid("id"), role: .pupil, name: try row.text("name"), classID: try row.uuid("classId")),
                row["passwordHash"].text)
    }

    // MARK: tokens

    /// Stores a new token; tokens that expired or were signed out are
    /// forgotten at the same time, so the table holds only live ones.
    public func insertToken(_ token: BearerToken, for account: UUID, now: Int64, expiresAt: Int64) async throws {
        try await db.transaction([
            SQLStatement("DELETE FROM token WHERE expiresAt <= ? OR revokedAt IS NOT NULL", [.int(now)]),
            SQLStatement("INSERT INTO token (hash, accountId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                         [.text(token.hash), .text(account.key), .int(now), .int(expiresAt)]),
        ])
    }

    /// The account a token signs in, if it is known, not revoked and not
    /// expired, and not a pupil of an archived class. (Archiving does not
    /// revoke the pupils' tokens, so undoing it at once signs nobody out.)
    public func account(for token: BearerToken, now: Int64) async throws -> Account? {
        let rows = try await db.query("""
            SELECT account.id, account.role, account.name, account.classId FROM token
            JOIN account ON account.id = token.accountId
            WHERE token.hash = ? AND token.revokedAt IS NULL AND token.expiresAt > ?
              AND (account.role = 'teacher' OR account.classId IN (SELECT id FROM schoolClass WHERE archivedAt IS NULL))
            """, [.text(token.hash), .int(now)])
        guard let row = rows.first else { return nil }
        guard let role = Account.Role(rawValue: try row.text("role")) else {
            throw DatabaseProblem.unexpectedRow(column: "role")
        }
        return Account(id: try row.uuid("id"), role: role, name: try row.text("name"),
                       classID: row["classId"].text.flatMap(UUID.init(text:)))
    }

    public func revoke(_ token: BearerToken, now: Int64) async throws {
        try await db.execute("UPDATE token SET revokedAt = ? WHERE hash = ? AND revokedAt IS NULL",
                             [.int(now), .text(token.hash)])
    }

    // MARK: usual devices

    /// Whether the account signed in from this address before (within a
    /// school year): its own laptop, or the class's.
    public func isUsualDevice(accountKey: String, address: String, since: Int64) async throws -> Bool {
        try await !db.query("SELECT lastAt FROM signInDevice WHERE accountKey = ? AND address = ? AND lastAt > ?",
                            [.text(accountKey), .text(address), .int(since)]).isEmpty
    }

    /// Remembers a successful sign-in's address; the account's oldest are
    /// forgotten beyond `maxUsualDevices`.
    public func rememberDevice(accountKey: String, address: String, now: Int64) async throws {
        try await db.transaction([
            SQLStatement("""
                INSERT INTO signInDevice (accountKey, address, lastAt) VALUES (?, ?, ?)
                ON CONFLICT (accountKey, address) DO UPDATE SET lastAt = excluded.lastAt
                """, [.text(accountKey), .text(address), .int(now)]),
            SQLStatement("""
                DELETE FROM signInDevice WHERE accountKey = ? AND address NOT IN
                    (SELECT address FROM signInDevice WHERE accountKey = ? ORDER BY lastAt DESC LIMIT ?)
                """, [.text(accountKey), .text(accountKey), .int(Int64(Self.maxUsualDevices))]),
        ])
    }

    /// A pupil signs in on the class's laptops and kiosks, a teacher on a
    /// few machines.
    public static let maxUsualDevices = 40
    /// How long a device stays usual without a sign-in from it.
    public static let usualDeviceMilliseconds: Int64 = 365 * 24 * 3600 * 1000

    // MARK: classes and pupils

    /// What a teacher may have: enough for any school, and a bound on what
    /// one account can make the server store and list.
    public static let maxClassesPerTeacher = 200
    public static let maxPupilsPerClass = 100
    /// Rows one list answers with at most (the spec's `maxItems`).
    public static let maxListed = 1000

    /// Nil when the teacher already has `maxClassesPerTeacher` classes.
    public func createClass(_ name: PersonName, teacher: UUID, now: Int64) async throws -> SchoolClass? {
        let id = UUID()
        // One in 10¹¹ that two classes draw the same: the unique index
        // would refuse the class, and the teacher tries again.
        let code = ClassCode.random()
        let watchKey = ClassWatchKey.random()
        let rows = try await db.execute("""
            INSERT INTO schoolClass (id, teacherId, name, createdAt, code, watchKey)
            SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM schoolClass WHERE teacherId = ?) < ?
            RETURNING id
            """, [.text(id.key), .text(teacher.key), .text(name.text), .int(now), .text(code.text), .text(watchKey.hex),
                  .text(teacher.key), .int(Int64(Self.maxClassesPerTeacher))])
        return rows.isEmpty ? nil : SchoolClass(id: id, teacherID: teacher, name: name.text, pupilCount: 0, code: code,
                                                watchKey: watchKey)
    }

    public func schoolClass(_ id: UUID) async throws -> SchoolClass? {
        try await classes(where: "schoolClass.id = ?", [.text(id.key)]).first
    }

    public func classes(of teacher: UUID, includingArchived: Bool = false) async throws -> [SchoolClass] {
        try await classes(where: "schoolClass.teacherId = ?" + (includingArchived ? "" : " AND schoolClass.archivedAt IS NULL"),
                          [.text(teacher.key)])
    }

    /// The classes pupils may sign in to on a device: those it signed in
    /// for before (`classDevice`, by the hash of its mark).
    public func classesForSignIn(device: String) async throws -> [SchoolClass] {
        try await classes(where: "schoolClass.archivedAt IS NULL AND schoolClass.id IN (SELECT classId FROM classDevice WHERE device = ?)",
                          [.text(device)])
    }

    /// The class a code names, if it is in use.
    public func schoolClass(code: ClassCode) async throws -> SchoolClass? {
        try await classes(where: "schoolClass.code = ? AND schoolClass.archivedAt IS NULL", [.text(code.text)]).first
    }

    public func knows(device: String, inClass classID: UUID) async throws -> Bool {
        try await !db.query("SELECT lastAt FROM classDevice WHERE classId = ? AND device = ?",
                            [.text(classID.key), .text(device)]).isEmpty
    }

    /// The device may list these classes' pupils from now on; beyond
    /// `maxDevicesPerClass` a class forgets first the devices only given
    /// its code (anyone who read the code could add those), then the ones
    /// unused longest. `signedIn`: someone of the class signed in there.
    public func remember(device: String, forClasses classIDs: [UUID], signedIn: Bool, now: Int64) async throws {
        guard !classIDs.isEmpty else { return }
        try await db.transaction(classIDs.flatMap { id in [
            SQLStatement("""
                INSERT INTO classDevice (classId, device, lastAt, signedIn) VALUES (?, ?, ?, ?)
                ON CONFLICT (classId, device) DO UPDATE SET lastAt = excluded.lastAt,
                    signedIn = CASE WHEN excluded.signedIn > classDevice.signedIn THEN excluded.signedIn ELSE classDevice.signedIn END
                """, [.text(id.key), .text(device), .int(now), .int(signedIn ? 1 : 0)]),
            SQLStatement("""
                DELETE FROM classDevice WHERE classId = ? AND device NOT IN
                    (SELECT device FROM classDevice WHERE classId = ? ORDER BY signedIn DESC, lastAt DESC LIMIT ?)
                """, [.text(id.key), .text(id.key), .int(Int64(Self.maxDevicesPerClass))]),
        ] })
    }

    /// A class's laptops, kiosks and the odd visitor's.
    public static let maxDevicesPerClass = 200

    /// Renames the class and/or archives or restores it; the class as it is
    /// now (nil if there is none). Archiving an archived class keeps the
    /// first time.
    public func updateClass(_ id: UUID, name: PersonName?, archived: Bool?, now: Int64) async throws -> SchoolClass? {
        var statements: [SQLStatement] = []
        if let name {
            statements.append(SQLStatement("UPDATE schoolClass SET name = ? WHERE id = ?", [.text(name.text), .text(id.key)]))
        }
        if let archived {
            statements.append(archived
                ? SQLStatement("UPDATE schoolClass SET archivedAt = ? WHERE id = ? AND archivedAt IS NULL", [.int(now), .text(id.key)])
                : SQLStatement("UPDATE schoolClass SET archivedAt = NULL WHERE id = ?", [.text(id.key)]))
        }
        if !statements.isEmpty { try await db.transaction(statements) }
        return try await schoolClass(id)
    }

    /// Sorted here, not in SQL: the two databases order text differently.
    private func classes(where condition: String, _ binds: [SQLValue]) async throws -> [SchoolClass] {
        let rows = try await db.query("""
            SELECT schoolClass.id, schoolClass.teacherId, schoolClass.name, schoolClass.archivedAt, schoolClass.code,
                   schoolClass.watchKey,
                   (SELECT COUNT(*) FROM account WHERE account.role = 'pupil' AND account.classId = schoolClass.id) AS pupils
            FROM schoolClass WHERE \(condition) ORDER BY schoolClass.createdAt, schoolClass.id LIMIT ?
            """, binds + [.int(Int64(Self.maxListed))])
        var classes = try rows.map {
            SchoolClass(id: try $0.uuid("id"), teacherID: try $0.uuid("teacherId"), name: try $0.text("name"),
                        pupilCount: Int(clamping: try $0.int("pupils")), archived: $0["archivedAt"] != .null,
                        code: $0["code"].text.flatMap(ClassCode.init(typed:)),
                        watchKey: $0["watchKey"].text.flatMap(ClassWatchKey.init(hex:)))
        }
        for i in classes.indices where classes[i].watchKey == nil {
            classes[i].watchKey = try await watchKey(givenTo: classes[i].id)
        }
        return classes.sorted { ($0.name.lowercased(), $0.id.key) < ($1.name.lowercased(), $1.id.key) }
    }

    /// A class without a key for its wall (made by an older server process
    /// while this one upgraded the database) gets one when it is read; two
    /// readers at once agree on the first one written.
    private func watchKey(givenTo id: UUID) async throws -> ClassWatchKey? {
        _ = try await db.execute("UPDATE schoolClass SET watchKey = ? WHERE id = ? AND watchKey IS NULL",
                                 [.text(ClassWatchKey.random().hex), .text(id.key)])
        return try await db.query("SELECT watchKey FROM schoolClass WHERE id = ?", [.text(id.key)])
            .first?["watchKey"].text.flatMap(ClassWatchKey.init(hex:))
    }

    public enum AddPupilResult: Sendable, Equatable {
        case added(PupilRecord)
        case nameTaken
        case classFull
    }

    public func addPupil(_ name: PersonName, to classID: UUID, now: Int64) async throws -> AddPupilResult {
        let id = UUID()
        let rows = try await db.execute("""
            INSERT INTO account (id, role, name, nameKey, classId, createdAt)
            SELECT ?, 'pupil', ?, ?, ?, ?
            WHERE (SELECT COUNT(*) FROM account WHERE role = 'pupil' AND classId = ?) < ?
            ON CONFLICT (classId, nameKey) WHERE role = 'pupil' DO NOTHING
            RETURNING id
            """, [.text(id.key), .text(name.text), .text(name.key), .text(classID.key), .int(now),
                  .text(classID.key), .int(Int64(Self.maxPupilsPerClass))])
        if !rows.isEmpty { return .added(PupilRecord(id: id, name: name.text, classID: classID, hasPicturePassword: false)) }
        let count = try await db.query("SELECT COUNT(*) AS n FROM account WHERE role = 'pupil' AND classId = ?",
                                       [.text(classID.key)]).first?.int("n") ?? 0
        return count >= Self.maxPupilsPerClass ? .classFull : .nameTaken
    }

    public func pupils(in classID: UUID) async throws -> [PupilRecord] {
        let rows = try await db.query("""
            SELECT id, name, classId, passwordHash FROM account
            WHERE role = 'pupil' AND classId = ? ORDER BY createdAt, id LIMIT ?
            """, [.text(classID.key), .int(Int64(Self.maxListed))])
        return try rows.map {
            PupilRecord(id: try $0.uuid("id"), name: try $0.text("name"), classID: try $0.uuid("classId"),
                        hasPicturePassword: $0["passwordHash"] != .null)
        }.sorted { ($0.name.lowercased(), $0.id.key) < ($1.name.lowercased(), $1.id.key) }
    }

    /// Sets a pupil's picture password and signs them out everywhere.
    public func setPicturePassword(_ hash: String, pupil: UUID, now: Int64) async throws {
        try await db.transaction([
            SQLStatement("UPDATE account SET passwordHash = ? WHERE id = ? AND role = 'pupil'", [.text(hash), .text(pupil.key)]),
            SQLStatement("UPDATE token SET revokedAt = ? WHERE accountId = ? AND revokedAt IS NULL", [.int(now), .text(pupil.key)]),
        ])
    }
}

extension UUID {
    /// How ids are stored and sent: lowercase.
    var key: String { lowercasedText }
}
