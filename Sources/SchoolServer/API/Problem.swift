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
        /// The account reached one of its quotas (`AccountQuota`).
        case overQuota
        /// The server's disk is full: nothing new is stored for now.
        case diskFull
    }

    public var code: Code
    public var message: String
    public var retryAfter: Int?
    /// Which quota was reached (`overQuota` only), so a device can say it
    /// in its own language.
    public var limit: AccountQuota.Limit?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil, limit: AccountQuota.Limit? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.limit = limit
    }

    public var status: HTTPResponse.Status {
        switch code {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .tooLarge: .contentTooLarge
        case .tooManyAttempts, .overQuota: .tooManyRequests
        case .conflict: .conflict
        case .unavailable: .serviceUnavailable
        case .internalError: .internalServerError
        case .timeout: .requestTimeout
        case .diskFull: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
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
        var fields = ["code": code.rawValue, "message": message]
        if let limit { fields["limit"] = limit.rawValue }
        let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return [UInt8](data ?? Data())
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headerFields, body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    static let noToken = Problem(.unauthorized, "sign in first: this needs a valid token")
    static let teachersOnly = Problem(.forbidden, "only teachers may do this")
    static let diskFull = Problem(.diskFull, "the server's disk is full: nothing new can be stored until space is freed",
                                  retryAfter: 600)
}

extension Problem {
    /// The same answer where the generated code expects one.
    var openAPIResponse: (HTTPResponse, HTTPBody) {
        (HTTPResponse(status: status, headerFields: headerFields), HTTPBody(json))
    }
}
