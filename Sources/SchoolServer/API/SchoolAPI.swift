import Foundation
import LearnModel
import Logging
import SchoolServerAPI

/// The handlers of openapi.yaml. They decide who may do what; the SQL is in
/// `AccountStore`. Every refusal is thrown as a `Problem` (see
/// `APIErrorMiddleware`), so only successful outputs are returned here.
struct SchoolAPI: APIProtocol {
    let configuration: ServerConfiguration
    let dependencies: ServerDependencies
    let logger: Logger
    /// Draws sketch images, shared by every request.
    let renderer: SketchRenderer
    /// Counts failed sign-ins, shared by every request.
    let throttle: SignInThrottle
    /// The free space under a SQLite database.
    let disk: DiskRoom
    /// What the metrics page counts.
    let metrics: ServerMetrics
    /// Accounts with a push under way.
    let pushes = PushesInFlight()
    /// Wakes the pulls that wait for new changes.
    let bell = ChangeBell()
    let exports = OneAtATime()

    var store: AccountStore { AccountStore(db: dependencies.database) }
    var now: Int64 { dependencies.clock.now() }

    // MARK: health

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let database: Components.Schemas.Health.DatabasePayload =
            dependencies.database.dialect == .sqlite ? .sqlite : .postgresql
        do {
            _ = try await dependencies.database.query("SELECT 1 AS one")
            return .ok(.init(body: .json(.init(status: .ok, database: database))))
        } catch {
            logger.warning("health check: the database does not answer: \(error)")
            return .serviceUnavailable(.init(body: .json(.init(status: .unavailable, database: database))))
        }
    }

    // MARK: signing in and out

    func signInTeacher(_ input: Operations.SignInTeacher.Input) async throws -> Operations.SignInTeacher.Output {
        let body = switch input.body { case .json(let body): body }
        // A name no teacher can have is just a wrong name: the same answer.
        // Its throttle key is a hash, so no byte of it reaches the database.
        let name = PersonName(body.name)
        let key = "teacher:" + (name?.key ?? "?" + sha256Hex(body.name.lowercased()))
        // bcrypt reads 72 bytes; what the spec allows beyond is not hashed.
        let password = String(body.password.prefix(200))
        let mark = try Self.deviceKey(input.headers.teamsketchDevice)
        let account = try await attempt(accountKey: key, mark: mark, refusal: Problem(.unauthorized, "wrong name or password")) { () async throws -> Account? in
            let found = try await name.asyncMap { name in try await database { try await store.teacher(named: name) } } ?? nil
            // Without such a teacher the decoy is checked, so the answer
            // takes as long and tells nobody which names exist.
            let matches = try await hasher { try await $0.verify(password, found?.1 ?? $0.decoy) }
            return matches ? found?.0 : nil
        }
        let signedIn = try await signIn(account, key: key, mark: mark, lifetime: configuration.teacherTokenLifetime)
        await remember(device: mark, of: account)
        return .created(.init(body: .json(signedIn)))
    }

    func signInPupil(_ input: Operations.SignInPupil.Input) async throws -> Operations.SignInPupil.Output {
        let body = switch input.body { case .json(let body): body }
        let pupilID = try Self.id(body.pupilId)
        let pictures = try Self.pictures(body.pictures)
        let key = Self.signInKey(pupil: pupilID)
        let mark = try Self.deviceKey(input.headers.teamsketchDevice)
        let account = try await attempt(accountKey: key, mark: mark, refusal: Problem(.unauthorized, "those are not the pictures")) { () async throws -> Account? in
            let found = try await database { try await store.pupil(pupilID, signingIn: true) }
            let matches = try await hasher { try await $0.verify(Accounts.pictureSecret(pictures), found?.1 ?? $0.decoy) }
            return matches && found?.1 != nil ? found?.0 : nil
        }
        let own = try await database { try await account.classID.asyncMap { try await store.schoolClass($0) } }
        let watchKey = own.flatMap { $0 }?.watchKey
        let signedIn = try await signIn(account, key: key, mark: mark, lifetime: configuration.pupilTokenLifetime,
                                        classWatchKey: watchKey)
        await remember(device: mark, of: account)
        return .created(.init(body: .json(signedIn)))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        _ = try await signedIn()
        let token = RequestInfo.current.token!  // signedIn() found it
        let now = now
        try await database { try await store.revoke(token, now: now) }
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let account = try await signedIn()
        return .ok(.init(body: .json(Self.schema(account, admin: try await isAdmin(account)))))
    }

    // MARK: classes and pupils

    func listClasses(_ input: Operations.ListClasses.Input) async throws -> Operations.ListClasses.Output {
        let account = try await signedIn()
        let classes: [SchoolClass]
        switch account.role {
        case .teacher:
            let archived = input.query.archived ?? false
            classes = try await database { try await store.classes(of: account.id, includingArchived: archived) }
        case .pupil:
            let own = try await database { try await account.classID.asyncMap { try await store.schoolClass($0) } }
            classes = own.flatMap { $0 }.map { [$0] } ?? []
        }
        // The code is the teacher's to hand out.
        return .ok(.init(body: .json(classes.map { account.role == .teacher ? Self.schema($0) : Self.schema($0, code: nil) })))
    }

    func createClass(_ input: Operations.CreateClass.Input) async throws -> Operations.CreateClass.Output {
        let teacher = try await signedInTeacher()
        try requireRoom()
        let body = switch input.body { case .json(let body): body }
        guard let name = PersonName(body.name) else { throw Problem(.badRequest, "a class name needs 1–64 characters") }
        let now = now
        guard let made = try await database({ try await store.createClass(name, teacher: teacher.id, now: now) }) else {
            throw Problem(.conflict, "a teacher may have at most \(AccountStore.maxClassesPerTeacher) classes")
        }
        return .created(.init(body: .json(Self.schema(made))))
    }

    func renameClass(_ input: Operations.RenameClass.Input) async throws -> Operations.RenameClass.Output {
        let body = switch input.body { case .json(let body): body }
        guard let name = PersonName(body.name) else { throw Problem(.badRequest, "a class name needs 1–64 characters") }
        return .ok(.init(body: .json(try await changeClass(input.path.classId, name: name, archived: nil))))
    }

    func setClassArchived(_ input: Operations.SetClassArchived.Input) async throws -> Operations.SetClassArchived.Output {
        let body = switch input.body { case .json(let body): body }
        return .ok(.init(body: .json(try await changeClass(input.path.classId, name: nil, archived: body.archived))))
    }

    /// Only the class's teacher changes it.
    private func changeClass(_ classID: String, name: PersonName?, archived: Bool?) async throws -> Components.Schemas.SchoolClass {
        let teacher = try await signedInTeacher()
        let schoolClass = try await ownClass(try Self.id(classID), of: teacher)
        try requireRoom()
        let now = now
        guard let changed = try await database({
            try await store.updateClass(schoolClass.id, name: name, archived: archived, now: now)
        }) else { throw Problem(.notFound, "no such class") }
        logger.info("class changed", metadata: ["class": "\(changed.id.key)", "archived": "\(changed.archived)"])
        return Self.schema(changed)
    }

    func listPupils(_ input: Operations.ListPupils.Input) async throws -> Operations.ListPupils.Output {
        let teacher = try await signedInTeacher()
        let schoolClass = try await ownClass(try Self.id(input.path.classId), of: teacher)
        let now = now
        let (pupils, usage) = try await database {
            (try await store.pupils(in: schoolClass.id), try await sync.usage(ofPupilsIn: schoolClass.id, day: AccountQuota.day(of: now)))
        }
        // What the teacher should hear of: a pupil whose device keeps work
        // the server would not take, and one whose pictures someone guesses.
        return .ok(.init(body: .json(pupils.map { pupil in
            var entry = Self.schema(pupil)
            entry.quotaReached = usage[pupil.id].flatMap { configuration.quota.reached($0, startsSketch: true) }
                .flatMap { .init(rawValue: $0.rawValue) }
            let failed = throttle.failures(accountKey: Self.signInKey(pupil: pupil.id), now: now)
            entry.failedSignInsToday = failed > 0 ? failed : nil
            return entry
        })))
    }

    func addPupil(_ input: Operations.AddPupil.Input) async throws -> Operations.AddPupil.Output {
        let teacher = try await signedInTeacher()
        try requireRoom()
        let schoolClass = try await ownClass(try Self.id(input.path.classId), of: teacher)
        let body = switch input.body { case .json(let body): body }
        guard let name = PersonName(body.name) else { throw Problem(.badRequest, "a pupil's name needs 1–64 characters") }
        let now = now
        switch try await database({ try await store.addPupil(name, to: schoolClass.id, now: now) }) {
        case .added(let pupil):
            return .created(.init(body: .json(Self.schema(pupil))))
        case .nameTaken:
            throw Problem(.conflict, "this class already has a pupil called \(name.text)")
        case .classFull:
            throw Problem(.conflict, "a class may have at most \(AccountStore.maxPupilsPerClass) pupils")
        }
    }

    func setPicturePassword(_ input: Operations.SetPicturePassword.Input) async throws -> Operations.SetPicturePassword.Output {
        let teacher = try await signedInTeacher()
        let pupilID = try Self.id(input.path.pupilId)
        let body = switch input.body { case .json(let body): body }
        let pictures = try Self.pictures(body.pictures)
        guard let (pupil, _) = try await database({ try await store.pupil(pupilID) }), let classID = pupil.classID else {
            throw Problem(.notFound, "no such pupil")
        }
        _ = try await ownClass(classID, of: teacher)
        let hash = try await hasher { try await $0.hash(Accounts.pictureSecret(pictures)) }
        let now = now
        try await database { try await store.setPicturePassword(hash, pupil: pupilID, now: now) }
        return .noContent(.init())
    }

    // MARK: who is asking

    /// The account of the request's token; 401 without a valid one.
    func signedIn() async throws -> Account {
        guard let token = RequestInfo.current.token else { throw Problem.noToken }
        if let known = RequestInfo.current.account { return known }
        guard let account = try await account(for: token) else {
            throw Problem(.unauthorized, "this token is unknown, expired or signed out")
        }
        return account
    }

    /// The account a token signs in, nil for an unknown, expired or
    /// signed-out one.
    func account(for token: BearerToken) async throws -> Account? {
        let now = now
        return try await database { try await store.account(for: token, now: now) }
    }

    func signedInTeacher() async throws -> Account {
        let account = try await signedIn()
        guard account.role == .teacher else { throw Problem.teachersOnly }
        return account
    }

    /// A class of this teacher: 404 when there is none, 403 when it is
    /// another teacher's.
    func ownClass(_ id: UUID, of teacher: Account) async throws -> SchoolClass {
        guard let found = try await database({ try await store.schoolClass(id) }) else {
            throw Problem(.notFound, "no such class")
        }
        guard found.teacherID == teacher.id else { throw Problem(.forbidden, "this is another teacher's class") }
        return found
    }

    // MARK: sign-in helpers

    /// Whose tries a pupil's sign-in counts against.
    static func signInKey(pupil: UUID) -> String { "pupil:" + pupil.key }

    /// One counted sign-in try (`SignInThrottle`, in memory). A try let
    /// through counts as a failure at once, so tries sent at the same
    /// moment see each other and a burst gets no more checks than the
    /// policy allows; too many, and it is refused unchecked (429). A wrong
    /// password leaves it a failure (401); a right one takes it back with
    /// the account's others. Whether the device is one the account signed
    /// in from before is read from the database.
    func attempt(accountKey: String, mark: String?, refusal: Problem,
                         check: () async throws -> Account?) async throws -> Account {
        let now = now
        let address = ClientAddress.key(RequestInfo.current.peerAddress)
        let device = Self.device(mark: mark, address: address)
        let usual = try await database {
            try await store.isUsualDevice(accountKey: accountKey, address: device, since: now - AccountStore.usualDeviceMilliseconds)
        }
        if case .wait(let seconds) = throttle.begin(accountKey: accountKey, device: device, address: address, usual: usual, now: now) {
            metrics.signInFailed(.throttled)
            throw Problem(.tooManyAttempts, "too many wrong tries; wait a little", retryAfter: seconds)
        }
        guard let account = try await check() else {
            metrics.signInFailed(.wrong)
            throw refusal
        }
        throttle.succeeded(accountKey: accountKey, device: device, address: address, usual: usual, at: now)
        return account
    }

    /// What a sign-in's device is: its mark when it sends one (so laptops
    /// behind one NAT address, a pupil's and a guessing classmate's, are
    /// told apart), else its address. A mark made up for each try is a new
    /// device each time: it gets no usual device's leave, and the limits
    /// per account and per address still hold.
    static func device(mark: String?, address: String) -> String {
        mark.map { "mark:" + $0 } ?? address
    }

    private func signIn(_ account: Account, key: String, mark: String?, lifetime: Int64,
                        classWatchKey: ClassWatchKey? = nil) async throws -> Components.Schemas.SignedIn {
        let token = BearerToken.random()
        let now = now
        let expires = now + lifetime
        let device = Self.device(mark: mark, address: ClientAddress.key(RequestInfo.current.peerAddress))
        try await database {
            try await store.insertToken(token, for: account.id, now: now, expiresAt: expires)
            try await store.rememberDevice(accountKey: key, address: device, now: now)
        }
        logger.info("signed in", metadata: ["account": "\(account.id.key)", "role": "\(account.role.rawValue)"])
        return .init(token: token.text, expiresAt: Date(timeIntervalSince1970: Double(expires) / 1000),
                     account: Self.schema(account, admin: try await isAdmin(account)), classWatchKey: classWatchKey?.hex)
    }

    /// Runs the password hasher; one that fails is the server's fault (503).
    func hasher<T: Sendable>(_ body: (PasswordHasher) async throws -> T) async throws -> T {
        do {
            return try await body(dependencies.hasher)
        } catch {
            logger.error("password hashing: \(error)")
            throw Problem(.unavailable, "the server cannot check passwords just now; try again soon")
        }
    }

    /// Runs store calls; a database that fails is a 503, not the client's fault.
    func database<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let problem as Problem {
            throw problem
        } catch where dependencies.database.isDiskFull(error) {
            logger.error("the database's disk is full: a write was refused (507)")
            throw Problem.diskFull
        } catch {
            logger.error("database: \(error)")
            throw Problem(.unavailable, "the server's database does not answer; try again soon")
        }
    }

    /// New work (a push, a class, a pupil, a restore) is stored only while
    /// the disk has more than its reserve; signing in and reading go on
    /// in the reserve (`DiskRoom`).
    func requireRoom() throws {
        guard disk.hasRoom() else { throw Problem.diskFull }
    }

    // MARK: conversions

    static func id(_ text: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw Problem(.badRequest, "\(text.prefix(40)) is not an id") }
        return id
    }

    /// Where a list's page starts; none for the first page.
    static func cursor(_ text: String?) throws -> SketchListCursor? {
        guard let text else { return nil }
        guard let cursor = SketchListCursor(text: text) else { throw Problem(.badRequest, "before is what Next-Before said") }
        return cursor
    }

    static func pictures(_ values: [Int]) throws -> [Int] {
        guard values.count == 3, values.allSatisfy({ (0...8).contains($0) }) else {
            throw Problem(.badRequest, "a picture password is three pictures numbered 0–8")
        }
        return values
    }

    static func schema(_ account: Account, admin: Bool = false) -> Components.Schemas.Account {
        .init(id: account.id.key, name: account.name, role: account.role == .teacher ? .teacher : .pupil,
              classId: account.classID?.key, admin: admin ? true : nil)
    }

    static func schema(_ schoolClass: SchoolClass) -> Components.Schemas.SchoolClass {
        schema(schoolClass, code: schoolClass.code)
    }

    static func schema(_ schoolClass: SchoolClass, code: ClassCode?) -> Components.Schemas.SchoolClass {
        .init(id: schoolClass.id.key, name: schoolClass.name, pupilCount: schoolClass.pupilCount, archived: schoolClass.archived,
              code: code?.shown, watchKey: schoolClass.watchKey?.hex)
    }

    static func schema(_ pupil: PupilRecord) -> Components.Schemas.Pupil {
        .init(id: pupil.id.key, name: pupil.name, classId: pupil.classID.key, hasPicturePassword: pupil.hasPicturePassword)
    }
}

extension Optional where Wrapped: Sendable {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
