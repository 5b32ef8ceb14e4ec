import Foundation
import NIOCore
import NIOWebSocket

/// The host's side of its control socket at the relay: the server says
/// "ready" once the session is listed, then "open <connection> <account>"
/// for each member who wants in, and the host answers with a data socket
/// for that member (`HostCore.relayedMemberArrives`). Anything else is
/// ignored; a close ends it, with the server's reason when it gave one
/// ("the school server is stopping").
final class RelayControlHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let onReady: () -> Void
    private let onOpen: (_ connection: UUID, _ account: UUID?) -> Void
    private let onClosed: (_ reason: String?) -> Void
    private var reason: String?

    init(onReady: @escaping () -> Void, onOpen: @escaping (_ connection: UUID, _ account: UUID?) -> Void,
         onClosed: @escaping (_ reason: String?) -> Void) {
        self.onReady = onReady
        self.onOpen = onOpen
        self.onClosed = onClosed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let text = String(buffer: frame.unmaskedData)
            let parts = text.split(separator: " ")
            if text == "ready" { onReady() }
            if (2...3).contains(parts.count), parts[0] == "open", let id = UUID(uuidString: String(parts[1])) {
                onOpen(id, parts.count == 3 ? UUID(uuidString: String(parts[2])) : nil)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            // A status code, then the reason in UTF-8 (RFC 6455, 5.5.1).
            var data = frame.unmaskedData
            if data.readableBytes > 2 {
                data.moveReaderIndex(forwardBy: 2)
                reason = data.readString(length: min(data.readableBytes, 123))
            }
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClosed(reason)
        context.fireChannelInactive()
    }
}
