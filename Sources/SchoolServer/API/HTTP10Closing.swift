import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1 as Hummingbird serves it, plus what the standard asks of a
/// server for HTTP/1.0: a request that did not ask to keep the connection
/// ("Connection: keep-alive") is answered and the connection closed. Text
/// browsers (w3m, lynx) speak 1.0 and read an answer until the server
/// closes; Hummingbird closes only after "Connection: close", so they
/// waited for ever. A handler right after the request decoder says
/// "close" for every request that is not keep-alive by its version's rules.
///
/// It also puts the `ConnectionLimiter`'s handler before the decoder.
struct HTTP10ClosingChannel<Inner: HTTPChannelHandler>: HTTPChannelHandler {
    typealias Value = Inner.Value
    let inner: Inner
    let limiter: ConnectionLimiter
    let firstHeadWithin: TimeAmount

    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let counter = ConnectionLimiter.Handler(limiter, firstHeadWithin: firstHeadWithin)
            try channel.pipeline.syncOperations.addHandler(counter, position: .before(decoder))
            try channel.pipeline.syncOperations.addHandler(CloseUnlessKeptAlive(onHead: counter.headArrived),
                                                           position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    /// A connection keeps its HTTP version: once a request is HTTP/1.1 this
    /// handler leaves, so a WebSocket upgrade never finds it in the way of
    /// the frames that follow. An upgrade exists from HTTP/1.1 on only: an
    /// older request's `Upgrade` is dropped (as the standard says a server
    /// must ignore it), else NIO would upgrade it with this handler still
    /// in the pipeline, and the first frame would stop the server.
    ///
    /// It also tells the connection's counter that a whole head arrived.
    final class CloseUnlessKeptAlive: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        let onHead: () -> Void

        init(onHead: @escaping () -> Void) { self.onHead = onHead }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(var head) = unwrapInboundIn(data) else {
                context.fireChannelRead(data)
                return
            }
            onHead()
            if head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) {
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            head.headers.remove(name: "upgrade")
            if !head.isKeepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrades answered by `webSocketRouter`, closing
    /// HTTP/1.0 connections as the standard asks, within `limiter`'s caps.
    static func http1ClosingHTTP10<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter, configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        limiter: ConnectionLimiter
    ) -> HTTPServerBuilder where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            HTTP10ClosingChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                     configuration: configuration),
                                 limiter: limiter, firstHeadWithin: configuration.http1.idleTimeout ?? .seconds(30))
        }
    }
}

