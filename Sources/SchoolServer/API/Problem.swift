import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// A refusal the API answers with: a status and a `Problem` body (a stable
/// code, a short English message). Every refusal of a request is one of
/// these, so a client never sees a 5xx for its own mistake.
public struct Problem: Error, Sendable, Equatable, HTTPResponseError {
    public enum Code: String, Sendable {
        case badRequest, unauthorized, forbidden, notFound, methodNotAllowed, tooLarge, tooManyAttempts, conflict, unavailable, internalError
        case timeout
    }

    public var code: Code
    public var message: String
    public var retryAfter: Int?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var status: HTTPResponse.Status {
        switch code {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .tooLarge: .contentTooLarge
        case .tooManyAttempts: .tooManyRequests
        case .conflict: .conflict
        case .unavailable: .serviceUnavailable
        case .internalError: .internalServerError
        case .timeout: .requestTimeout
        }
    }

    var headerFields: HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        // The rest of a late body is not waited for.
        if code == .timeout { fields[.connection] = "close" }
        return fields
    }

    var json: [UInt8] {
        let data = try? JSONSerialization.data(withJSONObject: ["code": code.rawValue, "message": message],
                                               options: [.sortedKeys])
        return [UInt8](data ?? Data())
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headerFields, body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    static let noToken = Problem(.unauthorized, "sign in first: this needs a valid token")
    static let teachersOnly = Problem(.forbidden, "only teachers may do this")
}

extension Problem {
    /// The same answer where the generated code expects one.
    var openAPIResponse: (HTTPResponse, HTTPBody) {
        (HTTPResponse(status: status, headerFields: headerFields), HTTPBody(json))
    }
}
