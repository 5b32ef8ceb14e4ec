import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Counts open connections, in all and per address, and closes a new one
/// beyond `HTTPLimits`' caps before it reads a byte: one script that opens
/// connections without end cannot take the ones the class needs.
final class ConnectionLimiter: Sendable {
    private let limits: HTTPLimits
    private let trustedProxies: Set<String>
    private let counts = NIOLockedValueBox(Counts())

    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    init(limits: HTTPLimits, trustedProxies: Set<String>) {
        self.limits = limits
        self.trustedProxies = trustedProxies
    }

    /// What a connection from `address` counts under: an IPv6 address's
    /// first four groups (its /64, what one home or device usually holds);
    /// nil for none, counted in the total only.
    static func key(_ address: SocketAddress?) -> String? {
        guard let ip = address?.ipAddress else { return nil }
        guard case .v6 = address else { return ip }
        if ip.hasPrefix("::ffff:"), ip.contains(".") { return String(ip.dropFirst(7)) }
        return IPv6Prefix.slash64(ip) ?? ip
    }

    /// Takes a place for a new connection; false when there is none.
    func open(_ key: String?) -> Bool {
        counts.withLockedValue { c in
            guard c.total < limits.maxConnections else { return false }
            if let key, !trustedProxies.contains(key) {
                guard c.perAddress[key, default: 0] < limits.maxConnectionsPerAddress else { return false }
                c.perAddress[key, default: 0] += 1
            }
            c.total += 1
            return true
        }
    }

    func close(_ key: String?) {
        counts.withLockedValue { c in
            c.total -= 1
            if let key, !trustedProxies.contains(key), let n = c.perAddress[key] {
                c.perAddress[key] = n > 1 ? n - 1 : nil
            }
        }
    }

    var openConnections: Int { counts.withLockedValue { $0.total } }

    /// In every connection's pipeline, just before the HTTP decoder (so it
    /// reads what TLS decrypted): counts the connection, and closes it when
    /// its first request's head is not whole within `idleTimeout`. Later
    /// requests are Hummingbird's (`HTTP1Channel.Configuration.idleTimeout`),
    /// which starts watching only after the first head; WebSocket frames
    /// pass through untouched.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let limiter: ConnectionLimiter
        private let firstHeadWithin: TimeAmount
        private var counted: (key: String?, yes: Bool) = (nil, false)
        private var deadline: Scheduled<Void>?
        /// The last bytes read while looking for the head's blank line.
        private var tail: [UInt8] = []

        init(_ limiter: ConnectionLimiter, firstHeadWithin: TimeAmount) {
            self.limiter = limiter
            self.firstHeadWithin = firstHeadWithin
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let key = ConnectionLimiter.key(context.channel.remoteAddress)
            guard limiter.open(key) else {
                context.close(promise: nil)
                return
            }
            counted = (key, true)
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: firstHeadWithin) { channel.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) { release() }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if deadline != nil {
                let buffer = unwrapInboundIn(data)
                let bytes = tail + buffer.readableBytesView
                if Self.containsBlankLine(bytes) {
                    deadline?.cancel()
                    deadline = nil
                    tail = []
                } else {
                    tail = Array(bytes.suffix(3))
                }
            }
            context.fireChannelRead(data)
        }

        private func release() {
            deadline?.cancel()
            deadline = nil
            guard counted.yes else { return }
            counted.yes = false
            limiter.close(counted.key)
        }

        /// "\r\n\r\n": the end of a request's head.
        static func containsBlankLine(_ bytes: [UInt8]) -> Bool {
            guard bytes.count >= 4 else { return false }
            for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
                return true
            }
            return false
        }
    }
}

/// The /64 network of an IPv6 address, as text.
enum IPv6Prefix {
    static func slash64(_ text: String) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: address) { Array($0.prefix(8)) }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }
}
