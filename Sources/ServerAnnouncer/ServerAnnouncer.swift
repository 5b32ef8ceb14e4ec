internal import CAvahiClient
import Foundation
import LearnModel
import Logging

/// Announces the running school server on the LAN as
/// `_teamsketch-server._tcp` (docs/PROTOCOL.md, "Finding the school server")
/// so desktops find it without anyone typing an address.
///
/// The server has no GLib loop, so this runs Avahi's threaded poll: one
/// thread of Avahi's own, on which every callback below runs with the poll's
/// lock held. Avahi is optional: without a daemon (or a system bus) the
/// server logs one warning and serves anyway, and announces as soon as
/// avahi-daemon is there again.
///
/// `@unchecked Sendable`: the mutable state is touched only by Avahi's
/// callbacks (poll thread, poll lock held) and by `start`/`stop` (which
/// take turns on `lifecycle`) while they hold the poll lock, or before the
/// poll thread runs / after it has stopped.
public final class ServerAnnouncer: @unchecked Sendable {
    public struct Service: Sendable, Equatable {
        public var port: Int
        public var tls: Bool
        public var path: String
        /// The address the server listens on (`--host`): it decides where
        /// the service is announced (see `interfaceIndex(listeningOn:)`).
        public var host: String

        public init(port: Int, tls: Bool, path: String = SchoolServerTXT.apiPath, host: String = "0.0.0.0") {
            self.port = port
            self.tls = tls
            self.path = path
            self.host = host
        }
    }

    /// How long to wait before building a new client after one failed for
    /// good (no system bus, or the daemon dropped us).
    static let retryMilliseconds: UInt32 = 2000

    private let logger: Logger
    private var service: Service?
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var retry: OpaquePointer?
    private var name: String?
    /// A warning was logged and nothing has been announced since: later
    /// problems of the same outage are only debug messages.
    private var warned = false
    /// Avahi holds a pointer to us from `start` to `stop`; this keeps us
    /// alive that long even if the owner lets go first.
    private var retained: Unmanaged<ServerAnnouncer>?
    /// `start` runs on the server's thread once it listens and `stop` on the
    /// command's task at shutdown, which can meet: they take turns.
    private let lifecycle = NSLock()

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Starts announcing `service`; returns at once. Never throws: the
    /// server must start whether or not Avahi is there.
    public func start(_ service: Service) {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard poll == nil else { return }
        guard let p = avahi_threaded_poll_new() else {
            logger.warning("Not announcing the server on the LAN: Avahi's poll could not be created")
            return
        }
        self.service = service
        poll = p
        retained = Unmanaged.passRetained(self)
        guard avahi_threaded_poll_start(p) >= 0 else {
            logger.warning("Not announcing the server on the LAN: Avahi's poll thread did not start")
            avahi_threaded_poll_free(p)
            poll = nil
            retained?.release()
            retained = nil
            return
        }
        avahi_threaded_poll_lock(p)
        connect()
        avahi_threaded_poll_unlock(p)
    }

    /// Withdraws the announcement (the daemon sends mDNS goodbyes, so
    /// browsers drop the server at once) and stops Avahi's thread.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard let p = poll else { return }
        avahi_threaded_poll_lock(p)
        let announced = group != nil && name != nil
        freeGroup()
        cancelRetry()
        avahi_threaded_poll_unlock(p)
        // Not from the poll thread, and before the client it runs goes.
        avahi_threaded_poll_stop(p)
        if let client { avahi_client_free(client) }
        client = nil
        avahi_threaded_poll_free(p)
        poll = nil
        if announced { logger.info("Withdrew the server's announcement on the LAN") }
        retained?.release()
        retained = nil
    }

    // MARK: - On the poll thread (or with its lock held)

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func connect() {
        guard let p = poll else { return }
        var error: Int32 = 0
        // NO_FAIL: a daemon that is not running is a state (CONNECTING)
        // the client leaves by itself when avahi-daemon starts. The callback
        // may run inside avahi_client_new, before `client` is set.
        let c = avahi_client_new(avahi_threaded_poll_get(p), AVAHI_CLIENT_NO_FAIL, clientCallback, userdata, &error)
        guard let c else {
            // No system bus at all: NO_FAIL does not cover that.
            problem("Not announcing the server on the LAN (DNS-SD): \(Self.text(error)); serving anyway, will retry")
            retryLater()
            return
        }
        client = c
    }

    fileprivate func clientChanged(_ c: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            if warned {
                logger.info("avahi-daemon is reachable again; announcing the server")
                warned = false
            }
            register(c)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The daemon is (re)naming its host; our records come back in
            // RUNNING, when `register` adds them again.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            // The daemon is not running, or went away: its objects went with it.
            freeGroup()
            problem("Not announcing the server on the LAN (DNS-SD): avahi-daemon is not running; "
                    + "serving anyway, will announce when it starts")
        case AVAHI_CLIENT_FAILURE:
            // A daemon that stops under a running client ends here
            // (DISCONNECTED), not in CONNECTING.
            freeGroup()
            let code = avahi_client_errno(c)
            let why = [AVAHI_ERR_DISCONNECTED, AVAHI_ERR_NO_DAEMON].contains(Int(code))
                ? "avahi-daemon is not running" : Self.text(code)
            problem("Not announcing the server on the LAN (DNS-SD): \(why); serving anyway, will retry")
            // Not freed here: we are inside the client's own dispatch.
            retryLater()
        default:
            break
        }
    }

    private func register(_ c: OpaquePointer) {
        guard let service else { return }
        if group == nil {
            group = avahi_entry_group_new(c, groupCallback, userdata)
            guard group != nil else {
                return problem("Could not announce the server on the LAN: \(Self.text(avahi_client_errno(c)))")
            }
        } else {
            avahi_entry_group_reset(group)
        }
        var n = name ?? SchoolServerTXT.instanceName(
            hostName: avahi_client_get_host_name(c).map { String(cString: $0) } ?? ProcessInfo.processInfo.hostName)
        var txt: UnsafeMutablePointer<AvahiStringList>?
        for entry in SchoolServerTXT.entries(tls: service.tls, path: service.path) { txt = avahi_string_list_add(txt, entry) }
        txt = avahi_string_list_reverse(txt) // add prepends
        defer { avahi_string_list_free(txt) }
        var result: Int32
        // A name taken by another service on this machine is refused right
        // here rather than reported as a group state.
        repeat {
            result = avahi_entry_group_add_service_strlst(group, Self.interfaceIndex(listeningOn: service.host),
                                                          AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                                                          n, SchoolServerTXT.serviceType, nil, nil,
                                                          UInt16(clamping: service.port), txt)
            if Int(result) == AVAHI_ERR_COLLISION { n = Self.alternative(n) }
        } while Int(result) == AVAHI_ERR_COLLISION
        name = n
        guard result >= 0 else {
            return problem("Could not announce the server on the LAN: \(Self.text(result))")
        }
        let committed = avahi_entry_group_commit(group)
        if committed < 0 { problem("Could not announce the server on the LAN: \(Self.text(committed))") }
    }

    fileprivate func groupChanged(_ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            var scope = ""
            if let host = service?.host, case let index = Self.interfaceIndex(listeningOn: host),
               index != AvahiIfIndex(AVAHI_IF_UNSPEC) {
                var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
                if if_indextoname(UInt32(index), &buffer) != nil {
                    scope = ", on \(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) only"
                }
            }
            logger.info("Announced on the LAN as \"\(name ?? "")\" (\(SchoolServerTXT.serviceType), port \(service?.port ?? 0)\(scope))")
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another machine announces the same name: take "… #2".
            let taken = name ?? ""
            name = Self.alternative(taken)
            logger.notice("The name \"\(taken)\" is taken on the LAN; announcing as \"\(name ?? "")\"")
            if let client { register(client) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            problem("Could not announce the server on the LAN: \(Self.text(client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)))")
        default:
            break
        }
    }

    fileprivate func retryFired() {
        retry = nil
        freeGroup()
        if let client { avahi_client_free(client) }
        client = nil
        connect()
    }

    private func retryLater() {
        guard retry == nil, let p = poll, let api = avahi_threaded_poll_get(p) else { return }
        var when = timeval()
        avahi_elapse_time(&when, Self.retryMilliseconds, 0)
        retry = api.pointee.timeout_new?(api, &when, retryCallback, userdata)
    }

    private func cancelRetry() {
        guard let retry, let p = poll, let api = avahi_threaded_poll_get(p) else { return }
        api.pointee.timeout_free?(retry)
        self.retry = nil
    }

    private func freeGroup() {
        // Freeing the group withdraws its service.
        if let group { avahi_entry_group_free(group) }
        group = nil
    }

    /// One warning per outage; the rest of it is debug noise.
    private func problem(_ message: String) {
        if warned {
            logger.debug("\(message)")
        } else {
            logger.warning("\(message)")
            warned = true
        }
    }

    /// Announce only where the server can be reached: everywhere when it
    /// listens on every address; on the interface holding its address
    /// otherwise, so a server bound to 127.0.0.1 (behind a proxy, say) never
    /// tells the LAN about a port nobody there can open. Looked up at each
    /// registration, as interfaces come and go.
    static func interfaceIndex(listeningOn host: String) -> AvahiIfIndex {
        let everywhere = AvahiIfIndex(AVAHI_IF_UNSPEC)
        let h = host.lowercased()
        if ["", "0.0.0.0", "::", "[::]"].contains(h) { return everywhere }
        let loopback = h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.")
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return everywhere }
        defer { freeifaddrs(list) }
        var node = list
        while let ifa = node?.pointee {
            node = ifa.ifa_next
            guard let name = ifa.ifa_name else { continue }
            let matches: Bool
            if loopback {
                matches = ifa.ifa_flags & UInt32(IFF_LOOPBACK) != 0
            } else if let address = ifa.ifa_addr, [AF_INET, AF_INET6].contains(Int32(address.pointee.sa_family)) {
                matches = numericHost(address) == h.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            } else {
                matches = false
            }
            if matches, case let index = if_nametoindex(name), index != 0 { return AvahiIfIndex(index) }
        }
        // A host name, or an address no interface has (then binding failed
        // already): announce everywhere rather than nowhere.
        return everywhere
    }

    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6)
                               ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        // Link-local IPv6 comes back as "fe80::1%eth0".
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "%").first.map { String($0).lowercased() }
    }

    private static func alternative(_ name: String) -> String {
        guard let next = avahi_alternative_service_name(name) else { return name + " #2" }
        defer { avahi_free(next) }
        return String(cString: next)
    }

    private static func text(_ code: Int32) -> String {
        avahi_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

private func announcer(_ userdata: UnsafeMutableRawPointer?) -> ServerAnnouncer? {
    userdata.map { Unmanaged<ServerAnnouncer>.fromOpaque($0).takeUnretainedValue() }
}

private let clientCallback: AvahiClientCallback = { client, state, userdata in
    guard let client else { return }
    announcer(userdata)?.clientChanged(client, state)
}

private let groupCallback: AvahiEntryGroupCallback = { _, state, userdata in
    announcer(userdata)?.groupChanged(state)
}

private let retryCallback: AvahiTimeoutCallback = { _, userdata in
    announcer(userdata)?.retryFired()
}
