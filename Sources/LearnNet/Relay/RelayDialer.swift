import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Where the school server relays sessions, and who is asking: the
/// server lets only a signed-in member of the session's class through.
public struct RelayEndpoint: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The account's API token (as for sync).
    public var token: String
    /// HTTPS, its certificate checked as the school link checks it.
    public var secure: Bool
    /// A PEM file of the authorities to trust (a school's own CA); nil:
    /// the system's.
    public var trustedCertificates: String?

    public init(host: String, port: Int, token: String, secure: Bool = false, trustedCertificates: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
        self.secure = secure
        self.trustedCertificates = trustedCertificates
    }

    /// The TLS handler a connection to this server starts with, if secure:
    /// the chain checked against the trusted authorities, and the host
    /// name too unless the address is a bare IP.
    func tlsHandler() throws -> NIOSSLClientHandler? {
        guard secure else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustedCertificates {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))
        }
        let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
        return try NIOSSLClientHandler(context: try NIOSSLContext(configuration: tls),
                                       serverHostname: isAddress ? nil : host)
    }
}

public enum RelayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered the upgrade with this status (401 signed out,
    /// 403 another class's session, 404 a session that ended).
    case refused(status: Int)
    case unreachable(String)

    public var description: String {
        switch self {
        case .refused(let status): "the school server refused (HTTP \(status))"
        case .unreachable(let why): "cannot reach the school server: \(why)"
        }
    }
}

/// Opens a WebSocket to the school server's relay. The channel it gives is
/// upgraded and carries bytes (`WebSocketByteStream`), so the session's own
/// frame reader and writer work on it as on TCP.
enum RelayDialer {
    static let maxFrameBytes = (1 << 20) + 64

    /// `path` is the relay's address on the server ("/relay/v1/join/…").
    /// `ready` runs on the loop once upgraded, before any byte of the
    /// relay is read: the session attaches there.
    static func dial(_ endpoint: RelayEndpoint, path: String, timeout: TimeAmount, loop: any EventLoop,
                     bytes: Bool = true,
                     ready: @escaping @Sendable (Channel) throws -> Void) -> EventLoopFuture<Channel> {
        let upgraded = loop.makePromise(of: Channel.self)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let upgrader = NIOWebSocketClientUpgrader(requestKey: key, maxFrameSize: maxFrameBytes,
                                                          automaticErrorHandling: true) { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        do {
                            if bytes { try channel.pipeline.syncOperations.addHandler(WebSocketByteStream()) }
                            try ready(channel)
                            upgraded.succeed(channel)
                        } catch {
                            upgraded.fail(error)
                            channel.close(promise: nil)
                            throw error
                        }
                    }
                }
                let request = UpgradeRequest(host: endpoint.host, port: endpoint.port, path: path, token: endpoint.token,
                                             refused: { status, channel in
                    guard status != 0 else { return upgraded.fail(RelayError.unreachable("connection closed")) }
                    guard status == 400 else {
                        upgraded.fail(RelayError.refused(status: status))
                        return channel.close(promise: nil)
                    }
                    // A refused upgrade is a bare 400; the same address
                    // asked plainly says why (401, 403, 404).
                    probe(endpoint, path: path, timeout: timeout, loop: loop).whenComplete { result in
                        let why = (try? result.get()).flatMap { $0 == 400 ? nil : $0 } ?? status
                        upgraded.fail(RelayError.refused(status: why))
                        channel.close(promise: nil)
                    }
                }, failed: { why in upgraded.fail(RelayError.unreachable(why)) })
                let config: NIOHTTPClientUpgradeConfiguration = (upgraders: [upgrader], completionHandler: { _ in
                    channel.pipeline.removeHandler(request, promise: nil)
                })
                return channel.eventLoop.makeCompletedFuture {
                    if let tls = try endpoint.tlsHandler() { try channel.pipeline.syncOperations.addHandler(tls) }
                }.flatMap {
                    // The server may write its first frame right behind the
                    // 101 (always "ready" on a control socket, the member's
                    // waiting bytes on an answer socket); on a busy machine
                    // both come in one read, and NIO's default drops what
                    // the HTTP decoder read past the answer.
                    channel.pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .forwardBytes,
                                                           withClientUpgrade: config)
                }.flatMap {
                    channel.pipeline.addHandler(request)
                }
            }
        bootstrap.connect(host: endpoint.host, port: endpoint.port).whenComplete { result in
            switch result {
            case .success(let channel):
                // No answer to the upgrade in time: give up on this one.
                let timer = loop.scheduleTask(in: timeout) {
                    upgraded.fail(RelayError.unreachable("no answer to the upgrade"))
                    channel.close(promise: nil)
                }
                upgraded.futureResult.whenComplete { _ in timer.cancel() }
            case .failure(let error):
                upgraded.fail(RelayError.unreachable("\(error)"))
            }
        }
        return upgraded.futureResult
    }

    /// The status of a plain GET of `path` with the token.
    static func probe(_ endpoint: RelayEndpoint, path: String, timeout: TimeAmount,
                      loop: any EventLoop) -> EventLoopFuture<Int> {
        let answer = loop.makePromise(of: Int.self)
        ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                let request = UpgradeRequest(host: endpoint.host, port: endpoint.port, path: path, token: endpoint.token,
                                             refused: { status, channel in
                    if status == 0 { answer.fail(RelayError.unreachable("connection closed")) } else { answer.succeed(status) }
                    channel.close(promise: nil)
                }, failed: { why in answer.fail(RelayError.unreachable(why)) })
                return channel.eventLoop.makeCompletedFuture {
                    if let tls = try endpoint.tlsHandler() { try channel.pipeline.syncOperations.addHandler(tls) }
                }.flatMap {
                    channel.pipeline.addHTTPClientHandlers()
                }.flatMap {
                    channel.pipeline.addHandler(request)
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    let timer = loop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                    channel.closeFuture.whenComplete { _ in
                        timer.cancel()
                        answer.fail(RelayError.unreachable("no answer"))
                    }
                case .failure(let error):
                    answer.fail(error)
                }
            }
        return answer.futureResult
    }

    /// Sends the request once connected (an upgrade when the upgrader is in
    /// the pipeline), and reads any answer the upgrader does not take as a
    /// refusal with its status.
    private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        let host: String, port: Int, path: String, token: String
        let refused: (Int, Channel) -> Void
        let failed: (String) -> Void

        init(host: String, port: Int, path: String, token: String, refused: @escaping (Int, Channel) -> Void,
             failed: @escaping (String) -> Void) {
            (self.host, self.port, self.path, self.token, self.refused, self.failed) = (host, port, path, token, refused, failed)
        }

        func channelActive(context: ChannelHandlerContext) {
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: "\(host):\(port)")
            headers.add(name: "Authorization", value: "Bearer \(token)")
            headers.add(name: "Content-Length", value: "0")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        private var answered = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let response) = unwrapInboundIn(data), !answered {
                answered = true
                refused(Int(response.status.code), context.channel)
            }
        }

        /// A failure before any answer (a certificate not trusted, say) is
        /// the one to report; the close that follows says nothing new.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !answered {
                answered = true
                failed("\(error)")
            }
            context.close(promise: nil)
        }

        /// Closed before any answer: the server went away (0: no status).
        func channelInactive(context: ChannelHandlerContext) {
            if !answered {
                answered = true
                refused(0, context.channel)
            }
            context.fireChannelInactive()
        }
    }
}

/// A session reached through the school server's relay.
public struct RelayRoute: Sendable, Hashable {
    public var endpoint: RelayEndpoint
    public var sessionID: UUID

    public init(endpoint: RelayEndpoint, sessionID: UUID) {
        self.endpoint = endpoint
        self.sessionID = sessionID
    }
}
