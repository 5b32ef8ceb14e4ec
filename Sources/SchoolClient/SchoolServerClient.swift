import AsyncHTTPClient
import Foundation
import HTTPTypes
import LearnModel
import LearnStore
import NIOCore
import NIOSSL
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SchoolServerAPI
import TeamsketchCore

/// The desktop's connection to one school server: the generated client of
/// openapi.yaml over AsyncHTTPClient. HTTPS checks the server's certificate
/// against the system's authorities, or only against the school's own when
/// a file of them is given; there is no switch to skip the check.
public final class SchoolServerClient: Sendable {
    /// The server's address without the API path, e.g. https://school:8470.
    public let address: URL
    let http: HTTPClient
    /// The same trust, for a client of its own with other timeouts.
    let tls: TLSConfiguration
    private let anonymous: Client

    /// `trustedCertificates`: a PEM file of the authorities to trust
    /// instead of the system's (a school that made its own).
    /// `deviceMark`: sent with sign-ins and the sign-in lists
    /// (`DeviceMark`), so the server knows the device again.
    public init(address: URL, trustedCertificates: String? = nil, deviceMark: String? = nil) throws {
        self.address = address
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustedCertificates {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))
        }
        self.tls = tls
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                          configuration: HTTPClient.Configuration(
                              tlsConfiguration: tls,
                              timeout: .init(connect: .seconds(5), read: .seconds(30))))
        anonymous = Client(serverURL: address.appending(path: "api/v1"),
                           transport: AsyncHTTPClientTransport(configuration: .init(client: http, timeout: .seconds(60))),
                           middlewares: deviceMark.map { [DeviceMarkMiddleware(mark: $0)] } ?? [])
    }

    /// Must be called once the client is no longer used.
    public func shutdown() async {
        try? await http.shutdown()
    }

    static func client(_ address: URL, _ http: HTTPClient, token: String?, timeout: Duration = .seconds(60)) -> Client {
        Client(serverURL: address.appending(path: "api/v1"),
               transport: AsyncHTTPClientTransport(configuration: .init(client: http, timeout: TimeAmount(timeout))),
               middlewares: token.map { [BearerTokenMiddleware(token: $0)] } ?? [])
    }

    // MARK: signing in

    public struct SignedIn: Sendable, Equatable {
        public var token: String
        public var expiresAt: Date
        public var accountID: AccountID
        public var name: String
        public var isTeacher: Bool
        /// A pupil's class; nil for a teacher.
        public var classID: SchoolClassID?
        /// A pupil's class's key for its watchers (`WatchProof`).
        public var classWatchKey: String?
    }

    public typealias SchoolClass = SchoolOffice.SchoolClass

    public enum SignInFailure: Error, Sendable, Equatable {
        case wrongNameOrPassword
        case tooManyTries(retryAfterSeconds: Int?)
        case connection(SchoolConnectionError)
    }

    public func signInTeacher(name: String, password: String) async throws(SignInFailure) -> SignedIn {
        let answer: SignInAnswer
        do {
            answer = switch try await anonymous.signInTeacher(body: .json(.init(name: name, password: password))) {
            case .created(let created): .signedIn(try? created.body.json)
            case .unauthorized, .badRequest, .contentTooLarge: .refused
            case .tooManyRequests(let wait): .tooManyTries(wait.headers.retryAfter)
            case .undocumented(let status, _): .unexpected(status)
            }
        } catch {
            throw .connection(Self.unreachable(error))
        }
        return try answer.signedIn()
    }

    public func signInPupil(id: AccountID, pictures: [Int]) async throws(SignInFailure) -> SignedIn {
        let answer: SignInAnswer
        do {
            answer = switch try await anonymous.signInPupil(body: .json(.init(pupilId: id.text, pictures: pictures))) {
            case .created(let created): .signedIn(try? created.body.json)
            case .unauthorized, .badRequest, .contentTooLarge: .refused
            case .tooManyRequests(let wait): .tooManyTries(wait.headers.retryAfter)
            case .undocumented(let status, _): .unexpected(status)
            }
        } catch {
            throw .connection(Self.unreachable(error))
        }
        return try answer.signedIn()
    }

    /// What either sign-in answered, reduced to what the app does next
    /// (the two operations' answers are the same cases of different types).
    private enum SignInAnswer {
        case signedIn(Components.Schemas.SignedIn?)
        case refused
        case tooManyTries(Int?)
        case unexpected(Int)

        func signedIn() throws(SignInFailure) -> SignedIn {
            switch self {
            case .signedIn(let body?):
                do throws(SchoolConnectionError) { return try SchoolServerClient.signedIn(body) } catch { throw .connection(error) }
            case .signedIn(nil): throw .connection(.refused(status: 201, message: "unreadable answer"))
            case .refused: throw .wrongNameOrPassword
            case .tooManyTries(let seconds): throw .tooManyTries(retryAfterSeconds: seconds)
            case .unexpected(let status): throw .connection(.refused(status: status, message: "unexpected answer"))
            }
        }
    }

    // MARK: a pupil signing in on a shared laptop

    /// The classes a pupil may choose from on this device, by name (no
    /// sign-in needed): those it has seen, and the one `code` names.
    public func listSignInClasses(code: String? = nil) async throws(PupilDirectory.Failure) -> [PupilDirectory.ClassChoice] {
        let output: Operations.ListSignInClasses.Output
        do {
            output = try await anonymous.listSignInClasses(query: .init(code: code))
        } catch {
            throw .unreachable
        }
        switch output {
        case .ok(let ok): return try Self.choices(try? ok.body.json)
        case .notFound: throw .unknownCode
        case .tooManyRequests: throw .tooManyTries
        case .badRequest, .undocumented: throw .unreachable
        }
    }

    private static func choices<Kind>(_ body: [Components.Schemas.SignInChoice]?) throws(PupilDirectory.Failure)
        -> [PupilDirectory.Choice<Kind>] {
        guard let body else { throw .unreachable }
        return try body.map { choice throws(PupilDirectory.Failure) in
            guard let id = ID<Kind>(wire: choice.id) else { throw .unreachable }
            return PupilDirectory.Choice(id: id, name: choice.name)
        }
    }

    /// The pupils of a class who can sign in, by name; `.unknownClass` when
    /// this device may not list them (or the class is gone). `token`: asked
    /// as someone of the class, on any device.
    public func listSignInPupils(classID: SchoolClassID, token: String? = nil) async throws(PupilDirectory.Failure) -> [PupilDirectory.PupilChoice] {
        let output: Operations.ListSignInPupils.Output
        do {
            let client = token.map { Self.client(address, http, token: $0) } ?? anonymous
            output = try await client.listSignInPupils(path: .init(classId: classID.text))
        } catch {
            throw .unreachable
        }
        switch output {
        case .ok(let ok): return try Self.choices(try? ok.body.json)
        case .notFound: throw .unknownClass
        case .tooManyRequests: throw .tooManyTries
        case .badRequest, .undocumented: throw .unreachable
        }
    }

    /// The pupil sign-in as the app's core asks for it; a sign-in becomes
    /// the device's `SchoolSignIn` for this server.
    public func pupilDirectory(trustedCertificates: String?) -> PupilDirectory {
        let server = address.absoluteString
        return PupilDirectory(
            classes: { code in try await self.listSignInClasses(code: code) },
            pupils: { classID in try await self.listSignInPupils(classID: classID) },
            signIn: { pupilID, pictures in
                let signedIn: SignedIn
                do throws(SignInFailure) {
                    signedIn = try await self.signInPupil(id: pupilID, pictures: pictures)
                } catch {
                    switch error {
                    case .wrongNameOrPassword: throw PupilDirectory.Failure.wrongPictures
                    case .tooManyTries: throw PupilDirectory.Failure.tooManyTries
                    case .connection: throw PupilDirectory.Failure.unreachable
                    }
                }
                return SchoolSignIn(server: server, trustedCertificates: trustedCertificates, accountID: signedIn.accountID,
                                    name: signedIn.name, isTeacher: signedIn.isTeacher, token: SchoolToken(signedIn.token),
                                    expiresAt: signedIn.expiresAt, classID: signedIn.classID,
                                    classWatchKey: signedIn.classWatchKey)
            })
    }

    // MARK: classes (the teacher's)

    /// The signed-in teacher's classes, by name (a pupil gets their own);
    /// the archived ones too only with `includingArchived`.
    public func listClasses(token: String, includingArchived: Bool = false) async throws(SchoolConnectionError) -> [SchoolClass] {
        let output: Operations.ListClasses.Output
        do {
            output = try await Self.client(address, http, token: token)
                .listClasses(query: .init(archived: includingArchived ? true : nil))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return try body.map { c throws(SchoolConnectionError) in try Self.schoolClass(c) }
    }

    /// Renames one of the teacher's classes; the class as it is now.
    public func renameClass(_ classID: SchoolClassID, to name: String, token: String) async throws(SchoolConnectionError) -> SchoolClass {
        let output: Operations.RenameClass.Output
        do {
            output = try await Self.client(address, http, token: token)
                .renameClass(path: .init(classId: classID.text), body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return try Self.schoolClass(body)
    }

    /// Archives one of the teacher's classes (its pupils can no longer sign
    /// in) or, with `false`, restores it; the class as it is now.
    public func setClassArchived(_ classID: SchoolClassID, _ archived: Bool, token: String) async throws(SchoolConnectionError) -> SchoolClass {
        let output: Operations.SetClassArchived.Output
        do {
            output = try await Self.client(address, http, token: token)
                .setClassArchived(path: .init(classId: classID.text), body: .json(.init(archived: archived)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return try Self.schoolClass(body)
    }

    private static func schoolClass(_ c: Components.Schemas.SchoolClass) throws(SchoolConnectionError) -> SchoolClass {
        SchoolClass(id: try .answered(c.id), name: c.name, pupilCount: c.pupilCount, archived: c.archived, code: c.code, watchKey: c.watchKey)
    }

    /// Makes a class; its id.
    public func createClass(named name: String, token: String) async throws(SchoolConnectionError) -> SchoolClassID {
        let output: Operations.CreateClass.Output
        do {
            output = try await Self.client(address, http, token: token).createClass(body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .created(let created) = output, let body = try? created.body.json else {
            throw Self.refusal(output)
        }
        return try .answered(body.id)
    }

    public typealias PupilEntry = SchoolOffice.Pupil

    /// The pupils of one of the teacher's classes, by name.
    public func listPupils(classID: SchoolClassID, token: String) async throws(SchoolConnectionError) -> [PupilEntry] {
        let output: Operations.ListPupils.Output
        do {
            output = try await Self.client(address, http, token: token).listPupils(path: .init(classId: classID.text))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return try body.map { p throws(SchoolConnectionError) in
            PupilEntry(id: try .answered(p.id), name: p.name, hasPicturePassword: p.hasPicturePassword,
                       quotaReached: p.quotaReached.flatMap { ServerQuota(rawValue: $0.rawValue) },
                       failedSignInsToday: max(0, p.failedSignInsToday ?? 0))
        }
    }

    /// Adds a pupil to one of the teacher's classes; the pupil's id.
    public func addPupil(named name: String, toClass classID: SchoolClassID, token: String) async throws(SchoolConnectionError) -> AccountID {
        let output: Operations.AddPupil.Output
        do {
            output = try await Self.client(address, http, token: token)
                .addPupil(path: .init(classId: classID.text), body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .created(let created) = output, let body = try? created.body.json else {
            throw Self.refusal(output)
        }
        return try .answered(body.id)
    }

    public func setPictures(_ pictures: [Int], pupil pupilID: AccountID, token: String) async throws(SchoolConnectionError) {
        let output: Operations.SetPicturePassword.Output
        do {
            output = try await Self.client(address, http, token: token)
                .setPicturePassword(path: .init(pupilId: pupilID.text), body: .json(.init(pictures: pictures)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .noContent = output else { throw Self.refusal(output) }
    }

    /// A sketch drawn by the server at full size, as PNG bytes (at most
    /// 64 MiB are read).
    public func sketchImage(_ sketchID: UUID, token: String) async throws(SchoolConnectionError) -> [UInt8] {
        let output: Operations.GetSketchImage.Output
        do {
            output = try await Self.client(address, http, token: token)
                .getSketchImage(path: .init(sketchId: sketchID.lowercasedText))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, case .png(let body) = ok.body else { throw Self.refusal(output) }
        do {
            return try await [UInt8](collecting: body, upTo: 64 << 20)
        } catch {
            throw Self.unreachable(error)
        }
    }

    /// An answer that is not the one asked for, as an error.
    private static func refusal(_ output: Any) -> SchoolConnectionError {
        .refused(status: 0, message: String(describing: output).prefix(300).description)
    }

    public func signOut(token: String) async {
        _ = try? await Self.client(address, http, token: token).signOut()
    }

    /// Whether the server answers and its database too.
    public func isHealthy() async -> Bool {
        await probe() == .answers
    }

    /// What asking the server's health found.
    public enum Probe: Sendable, Equatable {
        case answers
        /// Something there speaks TLS with a certificate this device does
        /// not trust (or for another name): never a reason to try plain HTTP.
        case untrustedCertificate
        case noAnswer
    }

    public func probe() async -> Probe {
        do {
            guard case .ok = try await anonymous.getHealth() else { return .noAnswer }
            return .answers
        } catch {
            return Self.isCertificateProblem(error) ? .untrustedCertificate : .noAnswer
        }
    }

    /// A TLS handshake that failed on the certificate (BoringSSL's
    /// CERTIFICATE_VERIFY_FAILED, or a name the certificate is not for), as
    /// against one with a server that speaks no TLS at all.
    static func isCertificateProblem(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        for _ in 0..<8 {
            guard let e = current else { return false }
            if let extra = e as? NIOSSLExtraError, extra == .failedToValidateHostname { return true }
            if e is NIOSSLError, String(describing: e).contains("CERTIFICATE_VERIFY_FAILED") { return true }
            current = (e as? ClientError)?.underlyingError
        }
        return false
    }

    // MARK: sync

    /// The two calls the sync service makes, signed in with `token`.
    public func connection(token: String) -> SchoolConnection {
        let client = Self.client(address, http, token: token)
        return SchoolConnection(
            push: { entries throws(SchoolConnectionError) in try await Self.push(entries, client) },
            pull: { after, limit, skipping throws(SchoolConnectionError) in
                try await Self.pull(after: after, limit: limit, skipping: skipping, client)
            },
            waitForChanges: { after, seconds throws(SchoolConnectionError) in
                try await Self.waitForChanges(after: after, seconds: seconds, client)
            })
    }

    private static func push(_ entries: [OutboxEntry], _ client: Client) async throws(SchoolConnectionError) -> PushOutcome {
        let changes = entries.map { entry in
            Components.Schemas.Change(
                opId: entry.opId.lowercasedText,
                entity: Components.Schemas.ChangeEntity(rawValue: entry.entity.rawValue)!,
                entityId: entry.entityId,
                payload: String(decoding: entry.payload, as: UTF8.self),
                // A device whose clock reads before 1970 still sends a
                // time the server accepts.
                createdAt: max(0, UnixMilliseconds.milliseconds(entry.createdAt)))
        }
        let output: Operations.PushChanges.Output
        do {
            output = try await client.pushChanges(body: .json(.init(changes: changes)))
        } catch {
            throw unreachable(error)
        }
        switch output {
        case .ok(let ok):
            guard let body = try? ok.body.json else { throw .refused(status: 200, message: "unreadable answer") }
            return PushOutcome(
                accepted: body.accepted.compactMap(UUID.init(uuidString:)),
                refused: body.rejected.compactMap { r in
                    UUID(uuidString: r.opId).map { PushOutcome.Refusal(opId: $0, reason: r.message) }
                },
                pushId: body.pushId.flatMap(UUID.init(uuidString:)))
        case .unauthorized:
            throw .signedOut
        case .badRequest(let answer):
            throw .refused(status: 400, message: (try? answer.body.json.message) ?? "")
        case .contentTooLarge:
            throw .refused(status: 413, message: "the push was too big")
        case .tooManyRequests(let answer):
            let problem = try? answer.body.json
            // Another push of the account under way: the next round sends
            // this batch again.
            guard problem?.code == .overQuota else { throw .refused(status: 429, message: problem?.message ?? "") }
            let limit = problem?.limit.flatMap { ServerQuota(rawValue: $0.rawValue) }
            throw .overQuota(limit ?? .changesToday, retryAfter: answer.headers.retryAfter ?? 3600)
        case .code507(let answer):
            throw .serverFull(retryAfter: answer.headers.retryAfter ?? 600)
        case .undocumented(let status, _):
            throw .refused(status: status, message: "unexpected answer")
        }
    }

    private static func pull(after: Int64, limit: Int, skipping: [UUID], _ client: Client) async throws(SchoolConnectionError) -> PulledPage {
        let body = try await page(after: after, limit: limit, skipping: skipping, wait: nil, client)
        // A change this version cannot name is left out; the cursor still
        // moves past it.
        let changes = body.changes.compactMap { c -> RemoteChange? in
            guard let opId = UUID(uuidString: c.opId), let entity = OutboxEntity(rawValue: c.entity) else { return nil }
            return RemoteChange(seq: c.seq, opId: opId, entity: entity, entityId: c.entityId,
                                payload: Data(c.payload.utf8), createdAt: UnixMilliseconds.date(c.createdAt))
        }
        return PulledPage(changes: changes, cursor: body.cursor, more: body.more)
    }

    /// A pull of one change that the server holds until there is one (or
    /// `seconds` passed): whether there is.
    private static func waitForChanges(after: Int64, seconds: Int, _ client: Client) async throws(SchoolConnectionError) -> Bool {
        !(try await page(after: after, limit: 1, skipping: [], wait: seconds, client).changes.isEmpty)
    }

    private static func page(after: Int64, limit: Int, skipping: [UUID], wait: Int?,
                             _ client: Client) async throws(SchoolConnectionError) -> Components.Schemas.ChangePage {
        let output: Operations.PullChanges.Output
        do {
            let skip = skipping.isEmpty ? nil : skipping.map { $0.lowercasedText }
            output = try await client.pullChanges(query: .init(after: after, limit: limit, skip: skip, wait: wait))
        } catch {
            throw unreachable(error)
        }
        switch output {
        case .ok(let ok):
            guard let body = try? ok.body.json else { throw .refused(status: 200, message: "unreadable answer") }
            return body
        case .unauthorized:
            throw .signedOut
        case .badRequest(let answer):
            throw .refused(status: 400, message: (try? answer.body.json.message) ?? "")
        case .undocumented(let status, _):
            throw .refused(status: status, message: "unexpected answer")
        }
    }

    private static func signedIn(_ body: Components.Schemas.SignedIn) throws(SchoolConnectionError) -> SignedIn {
        let classID: SchoolClassID? = if let c = body.account.classId { try .answered(c) } else { nil }
        return SignedIn(token: body.token, expiresAt: body.expiresAt, accountID: try .answered(body.account.id),
                        name: body.account.name, isTeacher: body.account.role == .teacher, classID: classID,
                        classWatchKey: body.classWatchKey)
    }

    static func unreachable(_ error: any Error) -> SchoolConnectionError {
        let cause = (error as? ClientError)?.underlyingError ?? error
        return .unreachable(String(describing: cause))
    }
}

/// Sends the device's mark with every call that signs in or lists names.
struct DeviceMarkMiddleware: ClientMiddleware {
    let mark: String

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("Teamsketch-Device")!] = mark
        return try await next(request, body, baseURL)
    }
}

/// Sends the sign-in's token with every call.
struct BearerTokenMiddleware: ClientMiddleware {
    let token: String

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
