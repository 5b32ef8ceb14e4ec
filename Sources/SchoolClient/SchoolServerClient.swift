import AsyncHTTPClient
import Foundation
import HTTPTypes
import LearnModel
import LearnStore
import NIOCore
import NIOSSL
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import TeamsketchAPI
import TeamsketchCore

/// The desktop's connection to one school server: the generated client of
/// openapi.yaml over AsyncHTTPClient. HTTPS checks the server's certificate
/// against the system's authorities, or only against the school's own when
/// a file of them is given; there is no switch to skip the check.
public final class SchoolServerClient: Sendable {
    /// The server's address without the API path, e.g. https://school:8470.
    public let address: URL
    let http: HTTPClient
    private let anonymous: Client

    /// `trustedCertificates`: a PEM file of the authorities to trust
    /// instead of the system's (a school that made its own).
    public init(address: URL, trustedCertificates: String? = nil) throws {
        self.address = address
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustedCertificates {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))
        }
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                          configuration: HTTPClient.Configuration(
                              tlsConfiguration: tls,
                              timeout: .init(connect: .seconds(5), read: .seconds(30))))
        anonymous = Self.client(address, http, token: nil)
    }

    /// Must be called once the client is no longer used.
    public func shutdown() async {
        try? await http.shutdown()
    }

    private static func client(_ address: URL, _ http: HTTPClient, token: String?) -> Client {
        Client(serverURL: address.appending(path: "api/v1"),
               transport: AsyncHTTPClientTransport(configuration: .init(client: http, timeout: .seconds(60))),
               middlewares: token.map { [BearerTokenMiddleware(token: $0)] } ?? [])
    }

    // MARK: signing in

    public struct SignedIn: Sendable, Equatable {
        public var token: String
        public var expiresAt: Date
        public var accountID: String
        public var name: String
        public var isTeacher: Bool
        /// A pupil's class; nil for a teacher.
        public var classID: String?
    }

    /// One of the teacher's classes.
    public struct SchoolClass: Sendable, Equatable {
        public var id: String
        public var name: String
        public var pupilCount: Int
        /// Put away: its pupils cannot sign in; listed only when asked for.
        public var archived: Bool = false

        public init(id: String, name: String, pupilCount: Int, archived: Bool = false) {
            self.id = id
            self.name = name
            self.pupilCount = pupilCount
            self.archived = archived
        }
    }

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

    public func signInPupil(id: String, pictures: [Int]) async throws(SignInFailure) -> SignedIn {
        let answer: SignInAnswer
        do {
            answer = switch try await anonymous.signInPupil(body: .json(.init(pupilId: id, pictures: pictures))) {
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
            case .signedIn(let body?): SchoolServerClient.signedIn(body)
            case .signedIn(nil): throw .connection(.refused(status: 201, message: "unreadable answer"))
            case .refused: throw .wrongNameOrPassword
            case .tooManyTries(let seconds): throw .tooManyTries(retryAfterSeconds: seconds)
            case .unexpected(let status): throw .connection(.refused(status: status, message: "unexpected answer"))
            }
        }
    }

    // MARK: a pupil signing in on a shared laptop

    /// Every class by name, for a pupil to find theirs (no sign-in needed).
    public func listSignInClasses() async throws(SchoolConnectionError) -> [PupilDirectory.Choice] {
        let output: Operations.ListSignInClasses.Output
        do {
            output = try await anonymous.listSignInClasses()
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return body.map { PupilDirectory.Choice(id: $0.id, name: $0.name) }
    }

    /// The pupils of a class who can sign in, by name.
    public func listSignInPupils(classID: String) async throws(SchoolConnectionError) -> [PupilDirectory.Choice] {
        let output: Operations.ListSignInPupils.Output
        do {
            output = try await anonymous.listSignInPupils(path: .init(classId: classID))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return body.map { PupilDirectory.Choice(id: $0.id, name: $0.name) }
    }

    /// The pupil sign-in as the app's core asks for it; a sign-in becomes
    /// the device's `SchoolSignIn` for this server.
    public func pupilDirectory(trustedCertificates: String?) -> PupilDirectory {
        let server = address.absoluteString
        return PupilDirectory(
            classes: {
                do { return try await self.listSignInClasses() } catch { throw PupilDirectory.Failure.unreachable }
            },
            pupils: { classID in
                do { return try await self.listSignInPupils(classID: classID) } catch { throw PupilDirectory.Failure.unreachable }
            },
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
                                    name: signedIn.name, isTeacher: signedIn.isTeacher, token: signedIn.token,
                                    expiresAt: signedIn.expiresAt, classID: signedIn.classID)
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
        return body.map(Self.schoolClass)
    }

    /// Renames one of the teacher's classes; the class as it is now.
    public func renameClass(_ classID: String, to name: String, token: String) async throws(SchoolConnectionError) -> SchoolClass {
        let output: Operations.RenameClass.Output
        do {
            output = try await Self.client(address, http, token: token)
                .renameClass(path: .init(classId: classID), body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return Self.schoolClass(body)
    }

    /// Archives one of the teacher's classes (its pupils can no longer sign
    /// in) or, with `false`, restores it; the class as it is now.
    public func setClassArchived(_ classID: String, _ archived: Bool, token: String) async throws(SchoolConnectionError) -> SchoolClass {
        let output: Operations.SetClassArchived.Output
        do {
            output = try await Self.client(address, http, token: token)
                .setClassArchived(path: .init(classId: classID), body: .json(.init(archived: archived)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return Self.schoolClass(body)
    }

    private static func schoolClass(_ c: Components.Schemas.SchoolClass) -> SchoolClass {
        SchoolClass(id: c.id, name: c.name, pupilCount: c.pupilCount, archived: c.archived)
    }

    /// Makes a class; its id.
    public func createClass(named name: String, token: String) async throws(SchoolConnectionError) -> String {
        let output: Operations.CreateClass.Output
        do {
            output = try await Self.client(address, http, token: token).createClass(body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .created(let created) = output, let body = try? created.body.json else {
            throw Self.refusal(output)
        }
        return body.id
    }

    /// A pupil of one of the teacher's classes, as the class list shows it.
    public struct PupilEntry: Sendable, Equatable {
        public var id: String
        public var name: String
        public var hasPicturePassword: Bool
    }

    /// The pupils of one of the teacher's classes, by name.
    public func listPupils(classID: String, token: String) async throws(SchoolConnectionError) -> [PupilEntry] {
        let output: Operations.ListPupils.Output
        do {
            output = try await Self.client(address, http, token: token).listPupils(path: .init(classId: classID))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .ok(let ok) = output, let body = try? ok.body.json else { throw Self.refusal(output) }
        return body.map { PupilEntry(id: $0.id, name: $0.name, hasPicturePassword: $0.hasPicturePassword) }
    }

    /// Adds a pupil to one of the teacher's classes; the pupil's id.
    public func addPupil(named name: String, toClass classID: String, token: String) async throws(SchoolConnectionError) -> String {
        let output: Operations.AddPupil.Output
        do {
            output = try await Self.client(address, http, token: token)
                .addPupil(path: .init(classId: classID), body: .json(.init(name: name)))
        } catch {
            throw Self.unreachable(error)
        }
        guard case .created(let created) = output, let body = try? created.body.json else {
            throw Self.refusal(output)
        }
        return body.id
    }

    public func setPictures(_ pictures: [Int], pupil pupilID: String, token: String) async throws(SchoolConnectionError) {
        let output: Operations.SetPicturePassword.Output
        do {
            output = try await Self.client(address, http, token: token)
                .setPicturePassword(path: .init(pupilId: pupilID), body: .json(.init(pictures: pictures)))
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
                .getSketchImage(path: .init(sketchId: sketchID.uuidString.lowercased()))
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
        guard case .ok = try? await anonymous.getHealth() else { return false }
        return true
    }

    // MARK: sync

    /// The two calls the sync service makes, signed in with `token`.
    public func connection(token: String) -> SchoolConnection {
        let client = Self.client(address, http, token: token)
        return SchoolConnection(
            push: { entries throws(SchoolConnectionError) in try await Self.push(entries, client) },
            pull: { after, limit throws(SchoolConnectionError) in try await Self.pull(after: after, limit: limit, client) })
    }

    private static func push(_ entries: [OutboxEntry], _ client: Client) async throws(SchoolConnectionError) -> PushOutcome {
        let changes = entries.map { entry in
            Components.Schemas.Change(
                opId: entry.opId.uuidString.lowercased(),
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
                })
        case .unauthorized:
            throw .signedOut
        case .badRequest(let answer):
            throw .refused(status: 400, message: (try? answer.body.json.message) ?? "")
        case .contentTooLarge:
            throw .refused(status: 413, message: "the push was too big")
        case .undocumented(let status, _):
            throw .refused(status: status, message: "unexpected answer")
        }
    }

    private static func pull(after: Int64, limit: Int, _ client: Client) async throws(SchoolConnectionError) -> PulledPage {
        let output: Operations.PullChanges.Output
        do {
            output = try await client.pullChanges(query: .init(after: after, limit: limit))
        } catch {
            throw unreachable(error)
        }
        switch output {
        case .ok(let ok):
            guard let body = try? ok.body.json else { throw .refused(status: 200, message: "unreadable answer") }
            // A change this version cannot name is left out; the cursor
            // still moves past it.
            let changes = body.changes.compactMap { c -> RemoteChange? in
                guard let opId = UUID(uuidString: c.opId), let entity = OutboxEntity(rawValue: c.entity.rawValue) else { return nil }
                return RemoteChange(seq: c.seq, opId: opId, entity: entity, entityId: c.entityId,
                                    payload: Data(c.payload.utf8), createdAt: UnixMilliseconds.date(c.createdAt))
            }
            return PulledPage(changes: changes, cursor: body.cursor, more: body.more)
        case .unauthorized:
            throw .signedOut
        case .badRequest(let answer):
            throw .refused(status: 400, message: (try? answer.body.json.message) ?? "")
        case .undocumented(let status, _):
            throw .refused(status: status, message: "unexpected answer")
        }
    }

    private static func signedIn(_ body: Components.Schemas.SignedIn) -> SignedIn {
        SignedIn(token: body.token, expiresAt: body.expiresAt, accountID: body.account.id, name: body.account.name,
                 isTeacher: body.account.role == .teacher, classID: body.account.classId)
    }

    private static func unreachable(_ error: any Error) -> SchoolConnectionError {
        let cause = (error as? ClientError)?.underlyingError ?? error
        return .unreachable(String(describing: cause))
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
