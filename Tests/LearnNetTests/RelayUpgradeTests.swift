import Crypto
import Foundation
import LearnModel
import NIOCore
import NIOPosix
import Testing
import TeamsketchTestSupport
@testable import LearnNet

/// The school server may send its first WebSocket frame right behind its
/// answer to the upgrade; on a busy laptop or server both then arrive in
/// one read. Those bytes belong to the relay, not to the HTTP answer, and
/// must reach it: the control socket's "ready" is the only sign a session
/// is listed, and a data socket's first bytes are the session's own.
///
/// The server here is a raw TCP socket that writes the answer and the
/// frame in one write, so the case that is rare under load happens every
/// time.
@Suite struct RelayUpgradeTests {
    @Test func aReadyThatCameWithTheUpgradeListsTheSession() async throws {
        let server = try await CoalescingServer.start(frame: CoalescingServer.textFrame("ready"))
        var config = SessionHost.Configuration(name: "Mia", params: SessionParams(name: "Zoo"))
        config.bindHost = "127.0.0.1"
        config.log = .silent
        let host = try await SessionHost.start(config)
        // Without the frame the wait below ends in "not listed" after 5 s.
        try await host.relay(through: RelayEndpoint(host: "127.0.0.1", port: server.port, token: "t"),
                             sessionName: "Zoo", timeout: .seconds(5))
        await host.shutdown()
        try await server.stop()
    }

    @Test func aDataSocketsFirstBytesThatCameWithTheUpgradeAreRead() async throws {
        let server = try await CoalescingServer.start(frame: CoalescingServer.binaryFrame([7, 8, 9]))
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let received = loop.makePromise(of: [UInt8].self)
        let channel = try await RelayDialer.dial(RelayEndpoint(host: "127.0.0.1", port: server.port, token: "t"),
                                                 path: "/relay/v1/join/x", timeout: .seconds(5), loop: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(FirstBytes(received))
        }.get()
        let timer = loop.scheduleTask(in: .seconds(5)) {
            received.fail(RelayError.unreachable("test: no bytes arrived on the data socket within 5 s of the upgrade"))
        }
        let bytes = try await received.futureResult.get()
        timer.cancel()
        #expect(bytes == [7, 8, 9])
        try await channel.close()
        try await server.stop()
    }

    /// Hands on the first bytes the byte stream gives.
    private final class FirstBytes: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<[UInt8]>
        init(_ promise: EventLoopPromise<[UInt8]>) { self.promise = promise }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            promise.succeed(Array(buffer: unwrapInboundIn(data)))
        }
    }
}

/// Answers any WebSocket upgrade with 101 and, in the same write, one
/// frame; then keeps the connection open without reading.
private struct CoalescingServer {
    let channel: Channel
    var port: Int { channel.localAddress!.port! }

    static func textFrame(_ text: String) -> [UInt8] { [0x81, UInt8(text.utf8.count)] + Array(text.utf8) }
    static func binaryFrame(_ bytes: [UInt8]) -> [UInt8] { [0x82, UInt8(bytes.count)] + bytes }

    static func start(frame: [UInt8]) async throws -> CoalescingServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Answer(frame: frame))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return CoalescingServer(channel: channel)
    }

    func stop() async throws { try await channel.close() }

    private final class Answer: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let frame: [UInt8]
        var request = ""
        var answered = false
        init(frame: [UInt8]) { self.frame = frame }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            request += String(buffer: unwrapInboundIn(data))
            guard request.contains("\r\n\r\n") else { return }
            answered = true
            let key = request.split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
            var buffer = context.channel.allocator.buffer(capacity: head.utf8.count + frame.count)
            buffer.writeString(head)
            buffer.writeBytes(frame)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
    }
}
