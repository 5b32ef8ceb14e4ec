import Logging
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

    /// What a connection from `address` counts under (`ClientAddress.key`);
    /// nil for one not capped per address (none known, a proxy the school
    /// named, or this machine itself unless `loopbackIsCapped`: its
    /// reverse proxy, or another server process passing relayed sessions
    /// on).
    func key(_ address: SocketAddress?) -> String? {
        guard let ip = address?.ipAddress, !trustedProxies.contains(ip) else { return nil }
        if !limits.loopbackIsCapped, Self.isLoopback(ip) { return nil }
        return ClientAddress.key(ip)
    }

    static func isLoopback(_ ip: String) -> Bool {
        ip == "::1" || ip.hasPrefix("127.") || ip.hasPrefix("::ffff:127.")
    }

    /// Takes a place for a new connection; false when there is none.
    func open(_ key: String?) -> Bool {
        counts.withLockedValue { c in
            guard c.total < limits.maxConnections else { return false }
            if let key {
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
            if let key, let n = c.perAddress[key] {
                c.perAddress[key] = n > 1 ? n - 1 : nil
            }
        }
    }

    var openConnections: Int { counts.withLockedValue { $0.total } }

    /// In every connection's pipeline, just before the HTTP decoder: counts
    /// the connection, and closes it when its first request's head is not
    /// whole within `idleTimeout` (the decoder says when it is:
    /// `headArrived`). Later requests are Hummingbird's
    /// (`HTTP1Channel.Configuration.idleTimeout`), which starts watching
    /// only after the first head; WebSocket frames pass through untouched.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let limiter: ConnectionLimiter
        private let firstHeadWithin: TimeAmount
        private var counted: (key: String?, yes: Bool) = (nil, false)
        private var deadline: Scheduled<Void>?

        init(_ limiter: ConnectionLimiter, firstHeadWithin: TimeAmount) {
            self.limiter = limiter
            self.firstHeadWithin = firstHeadWithin
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let key = limiter.key(context.channel.remoteAddress)
            guard limiter.open(key) else {
                limiter.refused(key)
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

        /// The decoder read a whole request head (bytes alone could say so
        /// falsely: the decoder skips blank lines before a request).
        func headArrived() {
            deadline?.cancel()
            deadline = nil
        }

        private func release() {
            deadline?.cancel()
            deadline = nil
            guard counted.yes else { return }
            counted.yes = false
            limiter.close(counted.key)
        }
    }

    /// One log line a minute at most, saying how many were refused.
    private let refusals = NIOLockedValueBox((count: 0, lastLog: NIODeadline.distantPast))
    private let logger = Logger(label: "teamsketch-server")

    func refused(_ key: String?) {
        let (count, log) = refusals.withLockedValue { r -> (Int, Bool) in
            r.count += 1
            guard NIODeadline.now() - r.lastLog > .minutes(1) else { return (r.count, false) }
            r.lastLog = .now()
            defer { r.count = 0 }
            return (r.count, true)
        }
        if log {
            logger.warning("connections refused over the caps", metadata: ["refused": "\(count)", "last": "\(key ?? "any")"])
        }
    }
}
