import NIOCore
import NIOWebSocket

/// Makes a WebSocket look like the TCP stream a session runs on: binary
/// messages in, their bytes out to the session's frame reader; bytes the
/// session writes go out as binary messages, masked as a client must.
/// Pings are answered, a close is answered and ends the connection, text
/// (which the relay never sends on these sockets) closes it.
final class WebSocketByteStream: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private var closeSent = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .binary, .continuation:
            context.fireChannelRead(wrapInboundOut(frame.unmaskedData))
        case .ping:
            var pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            pong.rsv1 = false
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            sendClose(context)
            context.close(promise: nil)
        case .pong:
            break
        default:
            sendClose(context)
            context.close(promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = unwrapOutboundIn(data)
        let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: bytes)
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    /// A session that closes its sending half (after its last frame) says
    /// goodbye the WebSocket way; the peer's close then ends the socket.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output {
            sendClose(context)
            promise?.succeed(())
            return
        }
        context.close(mode: mode, promise: promise)
    }

    private func sendClose(_ context: ChannelHandlerContext) {
        guard !closeSent else { return }
        closeSent = true
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .normalClosure)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
