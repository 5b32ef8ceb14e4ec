import Foundation
import LearnStore

/// The school server as the app core needs it: small, so the sync service
/// is tested against a real server through the live version and its
/// timing against a scripted one. `SchoolClient.live` is the real thing.
public struct SchoolConnection: Sendable {
    /// Sends outbox entries; says which the server accepted and which it
    /// refused for good (both leave the outbox).
    public var push: @Sendable (_ entries: [OutboxEntry]) async throws(SchoolConnectionError) -> PushOutcome
    /// Changes after a cursor, in server order, without what the pushes
    /// named in `skipping` (`PushOutcome.pushId`) stored.
    public var pull: @Sendable (_ after: Int64, _ limit: Int, _ skipping: [UUID]) async throws(SchoolConnectionError) -> PulledPage
    /// Waits up to `seconds` for a change after the cursor that this
    /// account may see; true when there is one. Nil for a server that
    /// cannot be waited on (or a test that does not): the sync service
    /// then only pulls on its own clock.
    public var waitForChanges: (@Sendable (_ after: Int64, _ seconds: Int) async throws(SchoolConnectionError) -> Bool)?

    public init(push: @escaping @Sendable ([OutboxEntry]) async throws(SchoolConnectionError) -> PushOutcome,
                pull: @escaping @Sendable (Int64, Int, [UUID]) async throws(SchoolConnectionError) -> PulledPage,
                waitForChanges: (@Sendable (Int64, Int) async throws(SchoolConnectionError) -> Bool)? = nil) {
        self.push = push
        self.pull = pull
        self.waitForChanges = waitForChanges
    }
}

public struct PushOutcome: Sendable, Equatable {
    public var accepted: [UUID]
    public var refused: [Refusal]
    /// The server's mark for this push (none from a server before it):
    /// a pull that names it is not sent back what the push stored.
    public var pushId: UUID?

    public struct Refusal: Sendable, Equatable {
        public var opId: UUID
        public var reason: String
        public init(opId: UUID, reason: String) { self.opId = opId; self.reason = reason }
    }

    public init(accepted: [UUID], refused: [Refusal], pushId: UUID? = nil) {
        self.accepted = accepted; self.refused = refused; self.pushId = pushId
    }
}

public struct PulledPage: Sendable, Equatable {
    public var changes: [RemoteChange]
    public var cursor: Int64
    public var more: Bool

    public init(changes: [RemoteChange], cursor: Int64, more: Bool) {
        self.changes = changes; self.cursor = cursor; self.more = more
    }
}

/// Why talking to the server failed, as far as what to do next goes.
public enum SchoolConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer (no route, refused, timed out, TLS failed): try later.
    case unreachable(String)
    /// The sign-in is no longer valid: sign in again; retrying will not help.
    case signedOut
    /// The server answered with an error it may not have next time (5xx,
    /// or a 4xx for a request the client thought right): try later.
    case refused(status: Int, message: String)
    /// The account reached one of the server's quotas: keep everything and
    /// push again after `retryAfter` seconds.
    case overQuota(ServerQuota, retryAfter: Int)
    /// The server's disk is full: keep everything and push again after
    /// `retryAfter` seconds.
    case serverFull(retryAfter: Int)

    public var description: String {
        switch self {
        case .unreachable(let why): "the server does not answer: \(why)"
        case .signedOut: "the sign-in has ended"
        case .refused(let status, let message): "the server answered \(status): \(message)"
        case .overQuota(let limit, let seconds): "the account reached the server's quota \(limit.rawValue); again in \(seconds) s"
        case .serverFull(let seconds): "the server's disk is full; again in \(seconds) s"
        }
    }
}
