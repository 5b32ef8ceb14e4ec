import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Turns every refusal from below — a route that does not exist, a method
/// a path does not serve, a body too large, a Problem from a handler — into
/// a JSON `Problem`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound {
                let served = routes.methods(at: request.uri.path)
                if !served.isEmpty {
                    var response = try Problem(.methodNotAllowed, "this path answers \(served.map(\.rawValue).joined(separator: ", "))")
                        .response(from: request, context: context)
                    response.headers[.allow] = served.map(\.rawValue).joined(separator: ", ")
                    return response
                }
            }
            throw Problem(Self.code(for: error.status), error.body ?? error.status.reasonPhrase)
        }
    }

    static func code(for status: HTTPResponse.Status) -> Problem.Code {
        switch status.code {
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 405: .methodNotAllowed
        case 413: .tooLarge
        case 429: .tooManyAttempts
        case 409: .conflict
        case 408: .timeout
        case 500...: .unavailable
        default: .badRequest
        }
    }
}

/// Reads the whole body up to its cap before anything parses it, so an
/// oversized or endless upload costs at most the cap and gets a 413, and a
/// dribbled one at most `bodyTimeout` and gets a 408. Only a push may be
/// big, and only with a valid token: a stranger's upload never costs more
/// than `maxBodyBytes`.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limits: HTTPLimits
    /// The account a token signs in, nil for none.
    let account: @Sendable (BearerToken) async -> Account?

    static let pushPath = "/api/v1/sync/push"

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var cap = limits.maxBodyBytes
        var info = RequestInfo.current
        if request.method == .post, request.uri.path == Self.pushPath {
            guard let token = info.token, let signedIn = await account(token) else { throw Problem.noToken }
            info.account = signedIn
            cap = limits.maxPushBytes
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > cap {
            throw Problem(.tooLarge, "the body may be at most \(cap) bytes")
        }
        let collected = try await Self.collect(request, upTo: cap, within: limits.bodyTimeout)
        return try await RequestInfo.$current.withValue(info) { try await next(collected, context) }
    }

    /// The request with its body read, racing the deadline: whichever comes
    /// first ends the other.
    static func collect(_ request: Request, upTo cap: Int, within deadline: Duration) async throws -> Request {
        try await withThrowingTaskGroup(of: Request?.self) { group in
            group.addTask {
                var request = request
                do {
                    _ = try await request.collectBody(upTo: cap)
                } catch let error as HTTPError where error.status == .contentTooLarge {
                    throw Problem(.tooLarge, "the body may be at most \(cap) bytes")
                }
                return request
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let request = first else {
                throw Problem(.timeout, "the body did not arrive within \(deadline.components.seconds) s")
            }
            return request
        }
    }
}

/// Makes the peer's address and the bearer token known to the handlers.
struct RequestInfoMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.resolve(peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor].last,
                                            trustedProxies: trustedProxies)
        let info = RequestInfo(peerAddress: address, token: RequestInfo.token(from: request.headers))
        return try await RequestInfo.$current.withValue(info) {
            try await next(request, context)
        }
    }
}

/// Between the generated code and the handlers: what a handler refuses
/// keeps its status; a database that does not answer is a 503. An error
/// before the handler had its input is the generated code refusing the
/// request (bad JSON, a wrong type, a missing field): the client's mistake,
/// 400. Anything else is the server's own fault: 500.
struct APIErrorMiddleware: ServerMiddleware {
    func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch let error as ServerError {
            let problem = switch error.underlyingError {
            case let problem as Problem: problem
            case let problem as DatabaseProblem: Problem(.unavailable, problem.description)
            default:
                error.operationInput == nil
                    ? Problem(.badRequest, "the request does not match the API: \(error.causeDescription)")
                    : Problem(.internalError, "the server failed; try again soon")
            }
            return problem.openAPIResponse
        }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
