import NIOCore
import LearnModel

/// Feeds a connection's bytes through a FrameDecoder and hands the messages
/// on. A decoding error is reported once; the owner closes the connection.
final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var decoder = FrameDecoder()
    private var failed = false
    private let onMessage: (SessionMessage) -> Void
    private let onFrameError: (FrameError) -> Void
    private let onBytes: (Int) -> Void
    private let onInactive: () -> Void
    /// Asked before each frame is decoded; false: the frame is not read and
    /// `onRefusedType` is called once (the owner closes the connection).
    private let admits: ((UInt8) -> Bool)?
    private let onRefusedType: (UInt8) -> Void

    init(onMessage: @escaping (SessionMessage) -> Void, onFrameError: @escaping (FrameError) -> Void,
         onBytes: @escaping (Int) -> Void, onInactive: @escaping () -> Void,
         admits: ((UInt8) -> Bool)? = nil, onRefusedType: @escaping (UInt8) -> Void = { _ in }) {
        self.admits = admits
        self.onRefusedType = onRefusedType
        self.onMessage = onMessage
        self.onFrameError = onFrameError
        self.onBytes = onBytes
        self.onInactive = onInactive
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let buffer = Self.unwrapInboundIn(data)
        onBytes(buffer.readableBytes)
        decoder.append(buffer.readableBytesView)
        do {
            while true {
                if let admits, let type = try decoder.nextFrameType(), !admits(type) {
                    failed = true
                    return onRefusedType(type)
                }
                guard let message = try decoder.next() else { break }
                onMessage(message)
            }
        } catch {
            failed = true
            onFrameError(error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A stream that stops inside a frame is worth a line in the log.
        if !failed {
            do { try decoder.finish() } catch {
                failed = true
                onFrameError(error)
            }
        }
        onInactive()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
