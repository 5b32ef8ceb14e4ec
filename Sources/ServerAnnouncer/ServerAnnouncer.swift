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
/// callbacks (poll thread, lock held) and by `start`/`stop` while they hold
/// the lock or before the thread runs / after it has stopped.
public final class ServerAnnouncer: @unchecked Sendable {
    public struct Service: Sendable, Equatable {
        public var port: Int
        public var tls: Bool
        public var path: String

        public init(port: Int, tls: Bool, path: String = SchoolServerTXT.apiPath) {
            self.port = port
            self.tls = tls
            self.path = path
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

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Starts announcing `service`; returns at once. Never throws: the
    /// server must start whether or not Avahi is there.
    public func start(_ service: Service) {
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
            result = avahi_entry_group_add_service_strlst(group, AvahiIfIndex(AVAHI_IF_UNSPEC),
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
            logger.info("Announced on the LAN as \"\(name ?? "")\" (\(SchoolServerTXT.serviceType), port \(service?.port ?? 0))")
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
