import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /metrics`, for the school's monitoring (Prometheus scrapes it with
/// `authorization: { credentials_file: … }`). The figures say how busy the
/// server is and how often sign-ins fail, which is no pupil's or
/// teacher's business: the page is served only to the bearer of the
/// metrics token the administrator set (`--metrics-token-file`), never to
/// an account's token, and without that setting the path does not exist.
struct MetricsRoute: Sendable {
    let metrics: ServerMetrics
    let token: MetricsToken
    let hub: RelayHub
    let renderer: SketchRenderer
    let database: MeteredDatabase

    static let path = "/metrics"

    func register(on router: Router<ServerRequestContext>) {
        router.get(RouterPath(Self.path)) { request, _ -> Response in
            guard token.admits(request.headers[.authorization]) else {
                throw Problem(.unauthorized, "the metrics page needs the server's metrics token")
            }
            let relay = await hub.counts
            let images = await renderer.queue
            let page = metrics.page(.init(relaySessions: relay.sessions, relayMembers: relay.members,
                                          imagesDrawing: images.drawing, imagesWaiting: images.waiting,
                                          databaseInUse: database.inUse, databasePoolSize: database.poolSize))
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
    }
}

/// The secret that opens the metrics page. Compared by digest, every byte
/// of it, so how long a wrong guess took says nothing of how much of it
/// was right.
public struct MetricsToken: Sendable {
    private let digest: [UInt8]

    /// At least this many characters: a token is a random secret, not a word.
    public static let minimumLength = 16

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case tooShort
        public var description: String {
            "the metrics token is at least \(MetricsToken.minimumLength) characters (e.g. `openssl rand -hex 24`)"
        }
    }

    /// `secret` as kept in its file; surrounding white space (the file's
    /// last newline) is not part of it.
    public init(_ secret: String) throws(Refusal) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= Self.minimumLength else { throw .tooShort }
        digest = Array(SHA256.hash(data: Data(trimmed.utf8)))
    }

    func admits(_ authorization: String?) -> Bool {
        guard let authorization, authorization.count < 4096 else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let guess = Array(SHA256.hash(data: Data(parts[1].utf8)))
        return zip(guess, digest).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
