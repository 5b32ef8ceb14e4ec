import Foundation
import LearnModel
import NIOCore
import NIOPosix

/// Asks a session's host for its picture without joining (`peek`, see
/// docs/PROTOCOL.md): one short connection that never enters the lobby, so a
/// join screen's card can show the host's face. Gives nil for no picture,
/// an older host (it closes on a first frame that is not a hello), no
/// answer within the time, or anything unreadable; the bytes are unchecked
/// (decode them only after `AvatarPNG.isAcceptable`).
public enum HostPicture {
    public static func fetch(host: String, port: Int, timeout: Duration = .seconds(3),
                             group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async -> [UInt8]? {
        let loop = group.next()
        let answer = Answer(loop.makePromise(of: [UInt8]?.self))
        let channel: Channel
        do {
            // The peek goes and the clock starts on the loop the moment it
            // connects, not after a hop back to this task: a busy machine may
            // not run the task for longer than the host waits for a first frame.
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(timeout.timeAmount)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(FrameHandler(
                            onMessage: { message in
                                guard case .avatar(let a) = message, a.member == HostSession.hostIndex else { return }
                                answer.give(a.png)
                                channel.close(promise: nil)
                            },
                            onFrameError: { _ in channel.close(promise: nil) },
                            onBytes: { _ in },
                            onInactive: { answer.give(nil) },
                            // Only the picture is read; anything else ends it.
                            admits: { $0 == SessionMessage.avatarFrameType },
                            onRefusedType: { _ in channel.close(promise: nil) }))
                    }
                }
                .connect(host: host, port: port)
                .map { channel in
                    let timer = loop.scheduleTask(in: timeout.timeAmount) { channel.close(promise: nil) }
                    answer.promise.futureResult.whenComplete { _ in timer.cancel() }
                    let frame = SessionMessage.peek(protocolVersion: SessionProtocol.version).frame()
                    channel.writeAndFlush(ByteBuffer(bytes: frame), promise: nil)
                    return channel
                }
                .get()
        } catch {
            answer.give(nil)
            return nil
        }
        let png = try? await answer.promise.futureResult.get()
        channel.close(promise: nil)
        return png ?? nil
    }

    /// The promise, fulfilled once (the picture, then the close, both report).
    private final class Answer: @unchecked Sendable {
        let promise: EventLoopPromise<[UInt8]?>
        private var given = false
        init(_ promise: EventLoopPromise<[UInt8]?>) { self.promise = promise }
        /// Called on the connection's loop only.
        func give(_ png: [UInt8]?) {
            guard !given else { return }
            given = true
            promise.succeed(png)
        }
    }
}
