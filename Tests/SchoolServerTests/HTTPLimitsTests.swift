import Foundation
import HTTPTypes
import NIOCore
import LearnStore
import SchoolClient
import TeamsketchCore
import Testing
@testable import SchoolServer

/// The server's limits on connections and requests (`HTTPLimits`), tried
/// with raw sockets as a script would: nothing sent, a head or a body sent
/// slowly, too many connections, big bodies without a token.
@Suite struct HTTPLimitsTests {
    private func server(_ edit: (inout HTTPLimits) -> Void) -> TestServer {
        var server = TestServer(.sqlite)
        edit(&server.configuration.limits)
        server.configuration.host = "127.0.0.1"
        return server
    }

    @Test func aConnectionThatSendsNothingOrHalfAHeadIsClosed() async throws {
        try await server { $0.idleTimeout = .seconds(1) }.run { api in
            let port = try #require(api.client.port)
            let silent = try RawSocket(port: port)
            let half = try RawSocket(port: port)
            half.send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\n")
            // Blank lines before a request are skipped by the decoder: no head.
            let blank = try RawSocket(port: port)
            blank.send("\r\n\r\n")
            #expect(await silent.readToClose(within: 15) == "", "closed without a word")
            #expect(await half.readToClose(within: 15) == "")
            #expect(await blank.readToClose(within: 15) == "")
            // A connection that was answered is closed once idle, too.
            let kept = try RawSocket(port: port)
            kept.send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\n\r\n")
            let answer = try #require(await kept.readToClose(within: 15))
            #expect(answer.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aBodyThatDoesNotArriveInTimeIsRefusedAndItsConnectionClosed() async throws {
        try await server { $0.bodyTimeout = .seconds(1) }.run { api in
            let port = try #require(api.client.port)
            let slow = try RawSocket(port: port)
            slow.send("POST /api/v1/sessions HTTP/1.1\r\nHost: school\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 1000\r\n\r\n{\"name\":")
            let answer = try #require(await slow.readToClose(within: 15), "closed")
            #expect(answer.hasPrefix("HTTP/1.1 408") && answer.contains("\"timeout\""), "\(answer.prefix(200))")
            #expect(try await api.call(.get, "/health").status == .ok)
        }
    }

    /// The app's own client pushing a big batch on a sign-in the server no
    /// longer knows gets the refusal (and so asks to sign in again), not a
    /// broken connection: why an upload refused before its body is still
    /// read to its end rather than cut off (AsyncHTTPClient takes a
    /// "Connection: close" answer mid-upload for a broken connection).
    @Test func theAppsClientReadsAnEarlyRefusalOfABigPush() async throws {
        try await TestServer(.sqlite).run { api in
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let sketch = UUID()
            let entries = (0..<8).map { n in
                OutboxEntry(opId: UUID(), entity: .sketchOp, entityId: sketch.uuidString.lowercased(),
                            payload: Data(repeating: UInt8(ascii: "x"), count: 900_000), createdAt: Date())
            }
            await #expect(throws: SchoolConnectionError.signedOut) {
                _ = try await client.connection(token: String(repeating: "a", count: 43)).push(entries)
            }
        }
    }

    /// 127.0.0.2 opens its three; its fourth is closed unanswered, while
    /// 127.0.0.3 (another laptop) and the three already open are served.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
        try await server { $0.maxConnectionsPerAddress = 3; $0.loopbackIsCapped = true }.run { api in
            let port = try #require(api.client.port)
            let three = try (0..<3).map { _ in try RawSocket(port: port, from: "127.0.0.2") }
            // An answer on each shows the server has counted all three (it
            // counts a connection as it takes it in, each on its own event
            // loop, so with the machine busy the fourth could otherwise be
            // taken in before the third).
            for socket in three {
                socket.send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\n\r\n")
                #expect(await socket.readResponse(within: 15)?.hasPrefix("HTTP/1.1 200") == true)
            }
            let fourth = try RawSocket(port: port, from: "127.0.0.2")
            #expect(await fourth.readToClose(within: 15) == "")
            let other = try RawSocket(port: port, from: "127.0.0.3")
            other.send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\nConnection: close\r\n\r\n")
            #expect(await other.readToClose(within: 15)?.hasPrefix("HTTP/1.1 200") == true)
            three[0].send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\nConnection: close\r\n\r\n")
            #expect(await three[0].readToClose(within: 15)?.hasPrefix("HTTP/1.1 200") == true)
            // The place it leaves is free again (the server closed its
            // side after answering; the connection ends when both have).
            // It is free once the server has seen the close, which a busy
            // machine may take a while to get to: a new connection is
            // refused until then, and served after.
            three[0].shutdown()
            let deadline = ContinuousClock.now + .seconds(15)
            var answer: String?
            repeat {
                let again = try RawSocket(port: port, from: "127.0.0.2")
                again.send("GET /api/v1/health HTTP/1.1\r\nHost: school\r\nConnection: close\r\n\r\n")
                answer = await again.readToClose(within: 15)
                if answer == "" { try await Task.sleep(for: .milliseconds(50)) }
            } while answer == "" && ContinuousClock.now < deadline
            #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(String(describing: answer))")
        }
    }

    @Test func theTotalCapCountsEveryAddressAndFreesOnClose() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 3
        limits.maxConnectionsPerAddress = 2
        let limiter = ConnectionLimiter(limits: limits, trustedProxies: ["10.0.0.1", "fd00::1"])
        #expect(limiter.open("192.168.1.5") && limiter.open("192.168.1.5"))
        #expect(!limiter.open("192.168.1.5"), "its own cap")
        #expect(limiter.key(try SocketAddress(ipAddress: "10.0.0.1", port: 1)) == nil, "a named proxy is not capped per address")
        #expect(limiter.key(try SocketAddress(ipAddress: "fd00::1", port: 1)) == nil, "nor one named by its IPv6 address")
        #expect(limiter.key(try SocketAddress(ipAddress: "127.0.0.1", port: 1)) == nil, "nor this machine")
        #expect(limiter.open(nil))
        #expect(!limiter.open("192.168.1.6"), "the total is reached")
        limiter.close("192.168.1.5")
        #expect(limiter.open("192.168.1.6") && limiter.openConnections == 3)
        #expect(limiter.key(try SocketAddress(ipAddress: "2001:db8:1:2:aaaa::1", port: 1)) == "2001:db8:1:2::/64")
        #expect(limiter.key(try SocketAddress(ipAddress: "2001:db8:1:2:bbbb::7", port: 1)) == "2001:db8:1:2::/64")
        #expect(limiter.key(try SocketAddress(ipAddress: "::ffff:192.168.1.5", port: 1)) == "192.168.1.5")
    }

    /// Bodies: a stranger's upload is refused before it is read, whatever
    /// it claims; every route but a push takes a small one.
    @Test(arguments: Backend.allCases)
    func bigBodiesNeedAValidTokenAndThePushRoute(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let big = Array(repeating: UInt8(ascii: " "), count: 7 << 20)
            let stranger = try await api.call(.post, "/sync/push", raw: big)
            #expect(stranger.status == .unauthorized)
            let forged = try await api.call(.post, "/sync/push", token: String(repeating: "a", count: 43), raw: big)
            #expect(forged.status == .unauthorized)
            let signIn = try await api.call(.post, "/sessions", raw: Array(repeating: UInt8(ascii: " "), count: 65 << 10))
            #expect(signIn.status == .contentTooLarge && signIn.problemCode == "tooLarge")
            let (_, token) = try await api.teacher("Frau Berg")
            // A teacher's big push is read (and found to be no JSON).
            let push = try await api.call(.post, "/sync/push", token: token, raw: big)
            #expect(push.status == .badRequest)
            let tooBig = try await api.call(.post, "/sync/push", token: token, raw: big + big)
            #expect(tooBig.status == .contentTooLarge)
        }
    }
}

/// A plain TCP connection to the test server, as a script holds one.
final class RawSocket: @unchecked Sendable {
    private let fd: Int32

    /// `from`: the local address to connect from (any of 127.0.0.0/8 on
    /// Linux's loopback), so a test can be several machines.
    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupProblem("socket: \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw TestSetupProblem("bind \(source): \(errno)") }
        }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSetupProblem("connect: \(errno)") }
    }

    deinit { close(fd) }

    /// Ends the connection from this side (the descriptor stays until deinit).
    func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One whole answer (its head, and a body of its `Content-Length`) on a
    /// connection that stays open; nil if it is not whole after `seconds`
    /// or the connection closes first.
    func readResponse(within seconds: Double) async -> String? {
        await read(within: seconds, closed: { _ in nil }) { text in
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let length = text[..<end.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            return text[end.upperBound...].utf8.count >= length
        }
    }

    /// Everything the server sends until it closes the connection; nil if
    /// it is still open after `seconds`.
    func readToClose(within seconds: Double) async -> String? {
        await read(within: seconds, closed: { $0 }) { _ in false }
    }

    /// Reads until `isWhole` says the text is, or the server closes
    /// (`closed` says what that gives); nil after `seconds`. Waits on a
    /// thread of its own, not on the pool the server's handlers need.
    private func read(within seconds: Double, closed: @escaping @Sendable (String) -> String?,
                      isWhole: @escaping @Sendable (String) -> Bool) async -> String? {
        let fd = fd
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                let deadline = Date().addingTimeInterval(seconds)
                while true {
                    let text = String(decoding: bytes, as: UTF8.self)
                    if !bytes.isEmpty, isWhole(text) { return continuation.resume(returning: text) }
                    let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard left > 0, poll(&poller, 1, left) > 0 else { return continuation.resume(returning: nil) }
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { return continuation.resume(returning: closed(text)) }
                    bytes += buffer.prefix(n)
                }
            }
        }
    }
}
