import HTTPTypes

/// What a handler needs to know about the request beyond its typed input:
/// the peer's address and the bearer token. The generated handlers do not
/// receive headers of the security scheme, so a middleware puts them here
/// for the duration of the request.
struct RequestInfo: Sendable {
    var peerAddress: String
    var token: BearerToken?
    /// The account `token` signs in, when a middleware already looked it
    /// up (a push's, before its body is read): the handler does not ask
    /// the database again.
    var account: Account?

    @TaskLocal static var current = RequestInfo(peerAddress: "unknown", token: nil)

    /// The token of an `Authorization: Bearer …` header; a malformed
    /// header counts as no token.
    static func token(from fields: HTTPFields) -> BearerToken? {
        guard let value = fields[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = BearerToken(text: String(parts[1]))
        return token.isWellFormed ? token : nil
    }
}
