import CAvahi
import LearnModel

/// The one avahi-client connection, on the GLib main loop.
///
/// Created with AVAHI_CLIENT_NO_FAIL: a missing daemon is a state
/// (CONNECTING) the client leaves by itself when avahi-daemon appears. A
/// missing system bus still makes `avahi_client_new` fail; then, and after a
/// daemon restart (FAILURE), the client is rebuilt a little later, so DNS-SD
/// heals without restarting the app.
@MainActor
final class AvahiConnection {
    /// A running client, or nil; publisher and browser use it only while set.
    private(set) var client: OpaquePointer?
    private(set) var status: MechanismStatus = .off
    /// Called whenever `client` or `status` changes.
    var onChange: (() -> Void)?

    static let retryMilliseconds: UInt32 = 2000

    private var poll: OpaquePointer?
    private var created: OpaquePointer?
    private var box: UnsafeMutableRawPointer?
    private var generation = 0

    func start() {
        guard poll == nil else { return }
        // G_PRIORITY_DEFAULT is 0; glib's macro doesn't come through CAvahi.
        poll = avahi_glib_poll_new(nil, 0)
        connect()
    }

    func stop() {
        generation += 1
        // Observers free their groups and browsers first; freeing the client
        // would free those under them.
        set(.off, client: nil)
        teardownClient()
        if let poll { avahi_glib_poll_free(poll) }
        poll = nil
    }

    private func connect() {
        guard let poll else { return }
        generation += 1
        // A retry keeps showing the last problem until something changes,
        // instead of flashing "starting" every few seconds.
        if status == .off { set(.starting, client: nil) }
        let target = AvahiCallbackTarget(self)
        let userdata = target.retainedPointer()
        box = userdata
        var error: Int32 = 0
        // The callback may run inside avahi_client_new, before it returns:
        // everything it needs comes from its arguments.
        let c = avahi_client_new(avahi_glib_poll_get(poll), AVAHI_CLIENT_NO_FAIL, { client, state, userdata in
            guard let client, let target = AvahiCallbackTarget<AvahiConnection>.target(userdata) else { return }
            let address = Int(bitPattern: client)
            MainActor.assumeIsolated {
                target.target?.stateChanged(OpaquePointer(bitPattern: address)!, state)
            }
        }, userdata, &error)
        guard let c else {
            AvahiCallbackTarget<AvahiConnection>.release(userdata)
            box = nil
            set(.unavailable(AvahiError.problem(error)), client: nil)
            retryLater()
            return
        }
        created = c
    }

    private func stateChanged(_ c: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            set(.running, client: c)
        case AVAHI_CLIENT_S_REGISTERING:
            // The daemon is (re)registering its host name; services wait.
            set(.starting, client: nil)
        case AVAHI_CLIENT_S_COLLISION:
            let name = avahi_client_get_host_name(c).map { String(cString: $0) } ?? "host name"
            set(.unavailable(.nameCollision(name)), client: nil)
        case AVAHI_CLIENT_CONNECTING:
            set(.unavailable(.daemonNotRunning), client: nil)
        case AVAHI_CLIENT_FAILURE:
            set(.unavailable(AvahiError.problem(avahi_client_errno(c))), client: nil)
            // Not freed here: we are inside the client's own D-Bus dispatch.
            retryLater()
        default:
            break
        }
    }

    private func retryLater() {
        let expected = generation
        runAfter(ms: Self.retryMilliseconds) { [weak self] in
            guard let self, self.generation == expected, self.poll != nil else { return }
            self.teardownClient()
            self.connect()
        }
    }

    private func teardownClient() {
        if let created { avahi_client_free(created) }
        created = nil
        if let box { AvahiCallbackTarget<AvahiConnection>.release(box) }
        box = nil
    }

    private func set(_ s: MechanismStatus, client c: OpaquePointer?) {
        guard s != status || c != client else { return }
        status = s
        client = c
        onChange?()
    }
}
