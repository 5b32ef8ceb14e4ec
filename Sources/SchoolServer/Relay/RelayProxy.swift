import Foundation
import HTTPTypes
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOSSL

/// A member's or host's data socket that arrived at a server process not
/// holding the session passes through to the process that does (its
/// owner, from the database's listing), so a load balancer in front of
/// several processes needs no stickiness. Segments go process to process,
/// never through the database.
///
/// The owner decides who may, as for a socket that came to it directly:
/// the proxy sends the same `Authorization`, and a refusal there closes
/// the member's socket here.
struct RelayProxy: Sendable {
    /// Set on a passed-on upgrade: the owner handles it itself or refuses,
    /// so two processes whose addresses are set up wrong cannot pass a
    /// socket back and forth for ever.
    static let hopHeader = HTTPField.Name("X-Teamsketch-Relay-Hop")!

    let tls: TLSConfiguration
    let logger: Logger

    /// Processes of one school usually share one certificate, often signed
    /// by the school's own CA: trusting the chain this process serves lets
    /// them reach each other over HTTPS without more setup.
    init(serverTLS: ServerConfiguration.TLSFiles?, logger: Logger) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let chain = serverTLS?.certificateChain {
            tls.additionalTrustRoots = [.file(chain)]
        }
        self.tls = tls
        self.logger = logger
    }

    /// Runs until either side ends; the other is then closed too.
    /// `owner`: `http(s)://host:port`; `path`: the relay address asked here.
    func pass(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
              to owner: String, path: String, authorization: String?) async {
        var headers: HTTPFields = [Self.hopHeader: "1"]
        if let authorization { headers[.authorization] = authorization }
        let url = (owner.hasSuffix("/") ? String(owner.dropLast()) : owner) + path
        let logger = logger
        do {
            try await WebSocketClient.connect(
                url: url,
                configuration: .init(maxFrameSize: RelayRoutes.maxMessageBytes, additionalHeaders: headers),
                tlsConfiguration: url.hasPrefix("https:") || url.hasPrefix("wss:") ? tls : nil,
                logger: logger
            ) { ownerInbound, ownerOutbound, _ in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.copy(inbound, to: ownerOutbound, logger: logger) }
                    group.addTask { await Self.copy(ownerInbound, to: outbound, logger: logger) }
                    await group.next()
                    group.cancelAll()
                }
                try? await ownerOutbound.close(.normalClosure, reason: nil)
            }
        } catch {
            logger.info("relay: passing \(path) on to \(owner) failed: \(error)")
        }
        try? await outbound.close(.normalClosure, reason: nil)
    }

    /// As `RelayRoutes.pipe` does: every data frame as binary, boundaries
    /// meaning nothing to the session protocol.
    private static func copy(_ inbound: WebSocketInboundStream, to writer: WebSocketOutboundWriter,
                             logger: Logger) async {
        do {
            for try await frame in inbound where frame.opcode != .text {
                try await writer.write(.binary(frame.data))
            }
        } catch {
            logger.debug("relay proxy pipe ended: \(error)")
        }
    }
}
