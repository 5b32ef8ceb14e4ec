import Hummingbird
import NIOCore

/// Hummingbird's per-request context plus the peer's address, which
/// failed sign-ins are counted by.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address without port; "unknown" when there is none
    /// (tests that bypass sockets).
    public let peerAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
